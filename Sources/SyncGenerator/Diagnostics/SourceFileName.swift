import Foundation

/// A schema file's name as a number: every node, name and word of a loaded schema carries its
/// file, and a number is copied without reference counting where a `String` (longer than 15
/// bytes, as paths are) is retained and released at each copy of each located value. Names are
/// interned for the life of the process: a tool reads a bounded set of files, and a number stays
/// valid wherever a location travels. The table is the generator's one piece of shared state, and
/// no output depends on it: locations compare and sort by their names, and print them.
struct SourceFileName: Hashable, Sendable {
    let id: UInt32

    init(_ name: String) { id = Self.table.id(of: name) }

    var name: String { Self.table.name(of: id) }

    private static let table = Table()

    private final class Table: @unchecked Sendable {
        // NSLock rather than `Mutex`, which macOS only has from macOS 15 on.
        private let lock = NSLock()
        private var names: [String] = []
        private var ids: [String: UInt32] = [:]

        func id(of name: String) -> UInt32 {
            lock.withLock {
                if let id = ids[name] { return id }
                let id = UInt32(names.count)
                names.append(name)
                ids[name] = id
                return id
            }
        }

        func name(of id: UInt32) -> String { lock.withLock { names[Int(id)] } }
    }
}
