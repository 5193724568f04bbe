import Foundation
import GeneratedCoverage
import Testing
@testable import SyncLocalStore
import SyncRuntime
import SyncCore
@testable import SyncLocalCloud

/// Every value a model holds comes back as it went in, through the store's typed columns, its
/// queries and sync, or its save is refused with an error naming the record and the field: never
/// another value. Strings keep every scalar, NUL included (T21.20); doubles keep their sign and
/// their subnormals, and a NaN or an infinity, which CloudKit may not keep, is refused (T21.21).
@Suite("Store: every value comes back as it went in")
struct StoreValueFidelityTests {
    static func item(_ name: String, text: String, quantity: Double = 1, tags: [String] = [], note: String? = nil) -> ListItem {
        ListItem(recordName: name, parent: RecordReference(recordName: "groceries"), text: text, quantity: quantity, assignee: .unset, tags: tags, note: note)
    }

    /// Breaking it: binding text up to its first NUL (`sqlite3_bind_text` with -1), as the store
    /// did, stores "a", and the query for "a\u{0}b" finds nothing.
    @Test func aStringWithANulKeepsEveryScalar() throws {  // trap: T21.20
        let store = try SyncStore(url: nil)
        try store.save(Self.item("1", text: "a\u{0}b", tags: ["x\u{0}y", "\u{0}"], note: "\u{0}"))
        try store.save(Self.item("2", text: "a"))
        let item = try #require(try store.fetch(ListItem.self, recordName: "1"))
        #expect(item.text == "a\u{0}b" && item.text.unicodeScalars.count == 3)
        #expect(item.tags == ["x\u{0}y", "\u{0}"] && item.note == "\u{0}")
        let all = Query<ListItem>()
        #expect(try store.fetch(all.filter(\.text == "a\u{0}b")).map(\.recordName) == ["1"])
        #expect(try store.fetch(all.filter(\.text == "a")).map(\.recordName) == ["2"])
        #expect(try store.fetch(all.filter(.hasPrefix(\.text, "a\u{0}"))).map(\.recordName) == ["1"])
        #expect(try store.fetch(all.filter(.hasPrefix(\.text, "a"))).map(\.recordName) == ["1", "2"])
        #expect(try store.fetch(all.filter(.contains(\.text, "\u{0}b"))).map(\.recordName) == ["1"])
        #expect(try store.fetch(all.sorted(by: \.text)).map(\.recordName) == ["2", "1"], "a string sorts before its extensions")
        // Compared as bytes, an empty text still starts with and contains nothing.
        try store.save(Self.item("3", text: ""))
        #expect(try store.fetch(all.filter(.hasPrefix(\.text, ""))).map(\.recordName) == ["1", "2", "3"])
        #expect(try store.fetch(all.filter(.contains(\.text, ""))).map(\.recordName) == ["1", "2", "3"])
        #expect(try store.fetch(all.filter(.hasPrefix(\.note, ""))).map(\.recordName) == ["1"], "a missing text starts with nothing")
    }

    /// Two natural keys that differ after a NUL are two keys: both saves stand, and no merge
    /// takes either. Breaking it (the NUL cut): the second save is refused as a duplicate.
    @Test func naturalKeysThatDifferAfterANulAreTwoKeys() throws {  // trap: T21.20
        let store = try SyncStore(url: nil)
        try store.save(Household(recordName: "h1", name: "Home\u{0}1"))
        try store.save(Household(recordName: "h2", name: "Home\u{0}2"))
        #expect(try store.fetchAll(Household.self).map(\.name).sorted() == ["Home\u{0}1", "Home\u{0}2"])
    }

    /// Strings drawn from every class of scalar (NUL and other controls, ASCII, Latin, combining
    /// marks, the rest of the BMP, beyond it, bidirectional controls) go into the store and come
    /// back equal, scalar for scalar, found by a query for themselves.
    @Test(arguments: 1...20 as ClosedRange<UInt64>)
    func randomStringsRoundTrip(seed: UInt64) throws {  // trap: T21.20
        var random = SeededRandom(seed: seed)
        let store = try SyncStore(url: nil)
        var written: [String: String] = [:]
        for index in 0..<30 {
            let text = Self.randomString(using: &random)
            written["\(index)"] = text
            try store.save(Self.item("\(index)", text: text, tags: [text, Self.randomString(using: &random)]))
        }
        for (name, text) in written {
            let item = try #require(try store.fetch(ListItem.self, recordName: name))
            #expect(Array(item.text.unicodeScalars) == Array(text.unicodeScalars), "seed \(seed): \(name)")
            let found = try store.fetch(Query<ListItem>().filter(\.text == text)).map(\.recordName)
            #expect(found.contains(name), "seed \(seed): a query for \(name)'s text misses it")
            #expect(found.allSatisfy { Array(written[$0]!.utf8) == Array(text.utf8) }, "seed \(seed): a query for \(name)'s text finds others")
        }
    }

    static func randomString(using random: inout SeededRandom) -> String {
        let classes: [ClosedRange<UInt32>] = [
            0...0, 1...0x1F, 0x20...0x7E, 0x7F...0x9F, 0xA0...0x2FF, 0x300...0x36F, 0x370...0xD7FF,
            0xE000...0xFFFD, 0x10000...0x10FFFF, 0x202A...0x202E,
        ]
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let range = classes.randomElement(using: &random)!
            scalars.append(Unicode.Scalar(UInt32.random(in: range, using: &random))!)
        }
        return String(scalars)
    }

    /// A negative zero keeps its sign, a subnormal its bits, the largest double its value, in a
    /// column, in a list and in a date; queries compare them as Swift does (`-0.0 == 0`).
    /// Breaking it (the column alone): SQLite's REAL column stores a negative zero as the
    /// integer 0, and it reads back as 0.0.
    @Test func doublesKeepTheirBits() throws {  // trap: T21.21
        let store = try SyncStore(url: nil)
        let values: [Double] = [-0.0, 0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude.nextDown, .greatestFiniteMagnitude, -1.5]
        for (index, value) in values.enumerated() {
            try store.save(Self.item("\(index)", text: "", quantity: value))
            try store.save(Household(recordName: "h\(index)", name: "h\(index)", since: Date(timeIntervalSinceReferenceDate: value), score: value))
        }
        for (index, value) in values.enumerated() {
            #expect(try store.fetch(ListItem.self, recordName: "\(index)")?.quantity.bitPattern == value.bitPattern, "\(value)")
            let household = try #require(try store.fetch(Household.self, recordName: "h\(index)"))
            #expect(household.score.bitPattern == value.bitPattern && household.since.timeIntervalSinceReferenceDate.bitPattern == value.bitPattern, "\(value)")
        }
        let zeros = try store.fetch(Query<ListItem>().filter(\.quantity == 0))
        #expect(zeros.map(\.recordName) == ["0", "1"], "-0.0 == 0, as in Swift")
        // A query reads the row kept beside the columns (`_extra`) as a fetch by name does.
        #expect(zeros.map(\.quantity.bitPattern) == [(-0.0).bitPattern, 0.0.bitPattern])
        #expect(try store.fetch(Query<ListItem>().filter(\.quantity < 0)).map(\.recordName) == ["3", "6"])
    }

    /// The same strings and doubles through sync: saved on the phone, read on the laptop, scalar
    /// for scalar and bit for bit, through LocalCloud and through the CloudKit gateway.
    @Test(arguments: SyncWorld.cloudKitPaths)
    func valuesSyncAsTheyWereSaved(throughCloudKit: Bool) async throws {  // trap: T21.20, T21.21
        var random = SeededRandom(seed: 7)
        let world = try SyncWorld(throughCloudKit: throughCloudKit)
        let phone = try world.device("alice-phone", account: "alice")
        let laptop = try world.device("alice-laptop", account: "alice")
        let doubles: [Double] = [-0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude, 0.1]
        var saved: [ListItem] = [Self.item("nul", text: "a\u{0}b", tags: ["\u{0}"], note: "\u{0}")]
        for (index, value) in doubles.enumerated() {
            saved.append(Self.item("\(index)", text: Self.randomString(using: &random), quantity: value, tags: [Self.randomString(using: &random)]))
        }
        try phone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try phone.store.save(saved)
        await phone.sync()
        await laptop.sync()
        for item in saved {
            let arrived = try #require(try laptop.store.fetch(ListItem.self, recordName: item.recordName))
            #expect(Array(arrived.text.unicodeScalars) == Array(item.text.unicodeScalars), "\(item.recordName)")
            #expect(arrived.tags.map { Array($0.unicodeScalars) } == item.tags.map { Array($0.unicodeScalars) }, "\(item.recordName)")
            #expect(arrived.note.map { Array($0.unicodeScalars) } == item.note.map { Array($0.unicodeScalars) }, "\(item.recordName)")
            #expect(arrived.quantity.bitPattern == item.quantity.bitPattern, "\(item.recordName): \(arrived.quantity)")
        }
    }

    /// A NaN or an infinity is refused at the save, with the record and the field named, and the
    /// store keeps what it held. Breaking it: storing a NaN, which SQLite keeps as NULL and reads
    /// back as 0.
    @Test(arguments: [Double.nan, .infinity, -.infinity, -Double.nan])
    func aNumberThatCannotSyncIsRefusedAtTheSave(value: Double) throws {  // trap: T21.21
        let store = try SyncStore(url: nil)
        try store.save(Self.item("1", text: "milk", quantity: 2))
        #expect {
            try store.save(Self.item("1", text: "milk", quantity: value))
        } throws: { error in
            guard case .notFinite(let type, let name, let field, _) = error as? RecordRefusal else { return false }
            return type == "ListItem" && name == "1" && field == "quantity" && "\(error)".contains("only finite numbers sync")
        }
        #expect(try store.fetch(ListItem.self, recordName: "1")?.quantity == 2)
        #expect(throws: RecordRefusal.self) { try store.save(Household(recordName: "h", name: "h", since: Date(timeIntervalSinceReferenceDate: value))) }
        #expect(try store.fetchAll(Household.self).isEmpty)
    }

    /// A NaN that reaches the store from the cloud anyway (another client wrote it) is kept
    /// exactly, never turned into 0: SQLite's column keeps NULL for it, and the row keeps the
    /// value beside it. Queries see no value there.
    @Test func aNaNFromTheCloudIsKeptExactly() throws {  // trap: T21.21
        let store = try SyncStore(url: nil)
        var record = Self.item("1", text: "milk").makeRecord()
        let nan = Double(bitPattern: 0x7FF8_0000_0000_1234)
        record.fields["quantity"] = .double(nan)
        record.changeTag = "1"
        _ = try store.applyPulled(record, as: ListItem.self)
        #expect(try store.fetch(ListItem.self, recordName: "1")?.quantity.bitPattern == nan.bitPattern)
        #expect(try store.fetch(Query<ListItem>().filter(\.quantity == 0)).isEmpty)
    }
}
