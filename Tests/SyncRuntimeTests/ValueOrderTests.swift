import Foundation
@testable import SyncCore
import Testing

/// One order of values (`QueryValueOrder`, as each type's `ScalarTypeFacts.order` says) for a
/// query's sort and range and for `merge: max`/`min`. A save refuses the values at its edges (a
/// NaN, which only finite numbers sync), so the engine never meets them; the merge is held to the
/// order here, value by value.
@Suite("Values: one order")
struct ValueOrderTests {
    static let values: [SyncFieldValue] = [
        .int64(-3), .int64(4), .double(4.5), .double(-0.0), .double(0), .double(.nan), .double(.infinity),
        .date(Date(timeIntervalSince1970: 5)), .date(Date(timeIntervalSince1970: 9)),
    ]

    /// `max` keeps the value the query's order puts last, `min` the first; a value with no
    /// place in the order (a NaN) yields to one with a place; and the answer is the same
    /// whichever side is this device's. Breaking it (the merge's own `<`, as before it read the
    /// order): `max(NaN, 7)` kept the NaN on the device holding it, and `max(1, 2.5)` of an
    /// integer and a double kept the server's whatever it was.
    @Test func maxAndMinFollowTheQueryOrderWhicheverSideIsMine() {
        for mine in Self.values {
            for theirs in Self.values {
                for larger in [true, false] {
                    let way: FieldMerge = larger ? .max : .min
                    let kept = RecordMerge.settle(way, policy: .serverWins, base: nil, mine: mine, theirs: theirs, localIsLater: true)
                    let swapped = RecordMerge.settle(way, policy: .serverWins, base: nil, mine: theirs, theirs: mine, localIsLater: true)
                    #expect(kept.map { "\($0)" } == swapped.map { "\($0)" }, "\(way) of \(mine) and \(theirs)")
                    guard let kept, let order = QueryValueOrder.compare(mine, theirs) else { continue }
                    let other = "\(kept)" == "\(mine)" ? theirs : mine
                    let keptOrder = QueryValueOrder.compare(kept, other) ?? 0
                    #expect(order == 0 || (larger ? keptOrder > 0 : keptOrder < 0), "\(way) of \(mine) and \(theirs) kept \(kept)")
                }
            }
        }
        #expect(RecordMerge.settle(.max, policy: .serverWins, base: nil, mine: .double(.nan), theirs: .double(7), localIsLater: true) == .double(7))
        #expect(RecordMerge.settle(.max, policy: .serverWins, base: nil, mine: .int64(1), theirs: .double(2.5), localIsLater: true) == .double(2.5))
        #expect(RecordMerge.settle(.min, policy: .serverWins, base: nil, mine: nil, theirs: .int64(3), localIsLater: true) == .int64(3))
    }
}
