import Foundation

/// The three-way merge of a record changed on the server and on this device, in one place: used
/// when a push meets `serverRecordChanged` and when a pull meets unpushed local edits.
package enum RecordMerge {
    /// The merged record, and the fields both sides changed with how each was settled.
    package struct Merged: Sendable {
        package var record: SyncRecord
        package var conflicts: [FieldConflict]
    }

    /// `merge(ancestor:local:server:rules:)` with one policy for every field.
    package static func merge(ancestor: SyncRecord?, local: SyncRecord, server: SyncRecord, policy: ConflictPolicy) -> SyncRecord {
        merge(ancestor: ancestor, local: local, server: server, rules: MergeRules(policy: policy)).record
    }

    /// Starts from the server record (it carries the right change tag) and, key by key of the
    /// keys this device's model owns (those `local` sets or clears): keeps the server's value
    /// where this device did not change it, takes this device's where only it changed, and
    /// settles keys both changed by the field's way in `rules` (the model's policy when it states
    /// none). Without an ancestor every differing key counts as changed on both sides. A key the
    /// model does not own (another app version's field) is the server's, untouched. A key the
    /// merge leaves without a value is cleared. Custom fields are settled last, on the rest.
    package static func merge(ancestor: SyncRecord?, local: SyncRecord, server: SyncRecord, rules: MergeRules) -> Merged {
        var merged = server
        merged.clearedKeys = []
        merged.clearedEncryptedKeys = []
        let localTime = local.clientModifiedAt ?? .distantPast
        let serverTime = server.clientModifiedAt ?? .distantPast
        let owned = Set(local.fields.names + local.encryptedFields.names).union(local.clearedKeys).subtracting([RecordFieldNames.clientModifiedAt])
        var conflicts: [FieldConflict] = []
        var custom: [(name: String, base: SyncFieldValue?, mine: SyncFieldValue?, theirs: SyncFieldValue?)] = []
        for name in owned.sorted() {
            let mine = local[field: name], theirs = server[field: name], base = ancestor?[field: name]
            let value: SyncFieldValue?
            let way = rules.fields[name] ?? .model
            if way == .counter {
                // Before the sides are compared: two equal changes are two changes.
                let counted = count(base: base, mine: mine, theirs: theirs, default: rules.defaults[name])
                if counted.overflowed { conflicts.append(FieldConflict(field: name, ancestor: base, local: mine, server: theirs, resolved: counted.value)) }
                set(counted.value, of: name, in: &merged, local: local, server: server)
                continue
            }
            if mine == theirs {
                value = theirs
            } else if ancestor != nil && mine == base {
                value = theirs
            } else if ancestor != nil && theirs == base {
                value = mine
            } else {
                if way == .custom, rules.custom != nil {
                    custom.append((name, base, mine, theirs))
                    continue
                }
                if way == .text, case .string(let localText)? = mine, case .string(let serverText)? = theirs {
                    let later: Bool? = localTime == serverTime ? nil : localTime > serverTime
                    let text = mergeText(name, base: base, known: ancestor != nil, local: localText, server: serverText, localIsLater: later)
                    conflicts += text.conflicts
                    set(text.value, of: name, in: &merged, local: local, server: server)
                    continue
                }
                if way == .max || way == .min, base == nil {
                    // Where the version both started from had no value, a side holding the
                    // model's default has none either: it read the key as missing.
                    let given = { (value: SyncFieldValue?) in value == rules.defaults[name] ? nil : value }
                    value = extreme(given(mine), given(theirs), larger: way == .max)
                } else {
                    value = settle(way, policy: rules.policy, base: base, mine: mine, theirs: theirs, localIsLater: localTime > serverTime)
                }
                conflicts.append(FieldConflict(field: name, ancestor: base, local: mine, server: theirs, resolved: value))
            }
            set(value, of: name, in: &merged, local: local, server: server)
        }
        for (name, base, mine, theirs) in custom {
            let value = rules.custom?(name, ancestor, local, server, merged)
            set(value, of: name, in: &merged, local: local, server: server)
            conflicts.append(FieldConflict(field: name, ancestor: base, local: mine, server: theirs, resolved: value))
        }
        if local.parentRecordName != server.parentRecordName,
            ancestor?.parentRecordName == server.parentRecordName || rules.policy.localWins(localIsLater: localTime > serverTime)
        {
            merged.parentRecordName = local.parentRecordName
        }
        merged.fields[RecordFieldNames.clientModifiedAt] = .date(max(localTime, serverTime))
        return Merged(record: merged, conflicts: conflicts)
    }

    /// A key's merged value, in the set the local model keeps it in (a key the local record does
    /// not hold stays where the server keeps it).
    private static func set(_ value: SyncFieldValue?, of name: String, in merged: inout SyncRecord, local: SyncRecord, server: SyncRecord) {
        let encrypted = local.encryptedFields[name] != nil || (local[field: name] == nil && server.encryptedFields[name] != nil)
        merged.fields[name] = encrypted ? nil : value
        merged.encryptedFields[name] = encrypted ? value : nil
        if value == nil { merged.clearedKeys.insert(name) }
    }

    /// The value of a key both sides changed, by the field's way.
    static func settle(_ way: FieldMerge, policy: ConflictPolicy, base: SyncFieldValue?, mine: SyncFieldValue?, theirs: SyncFieldValue?, localIsLater: Bool) -> SyncFieldValue? {
        switch way {
        case .model, .custom: return policy.localWins(localIsLater: localIsLater) ? mine : theirs
        case .lastWriterWins: return localIsLater ? mine : theirs
        case .serverWins: return theirs
        case .clientWins: return mine
        case .union: return union(base: base, mine: mine, theirs: theirs)
        case .max: return extreme(mine, theirs, larger: true)
        case .min: return extreme(mine, theirs, larger: false)
        case .counter: return count(base: base, mine: mine, theirs: theirs, default: nil).value
        // A side that cleared an optional text: settled as any value, by the later edit.
        case .text: return localIsLater ? mine : theirs
        }
    }

    /// A text both sides changed (``TextMerge``), against the ancestor's text (`known`: whether
    /// there is an ancestor; one without the field had an empty text; none: each side's whole
    /// text is the part both changed). Each part both changed is a
    /// conflict of its own, holding each side's text of that part. A merged text past what a
    /// record holds keeps the server's, and the whole field is the conflict.
    private static func mergeText(
        _ name: String, base: SyncFieldValue?, known: Bool, local: String, server: String, localIsLater: Bool?
    ) -> (value: SyncFieldValue, conflicts: [FieldConflict]) {
        let ancestor: String? = if case .string(let text)? = base { text } else { known ? "" : nil }
        let merged = TextMerge.merge(ancestor: ancestor, local: local, server: server, localIsLater: localIsLater)
        guard merged.text.utf8.count <= CloudKitLimits.maxRecordBytes else {
            return (.string(server), [FieldConflict(field: name, ancestor: base, local: .string(local), server: .string(server), resolved: .string(server))])
        }
        let conflicts = merged.overlaps.map {
            FieldConflict(field: name, ancestor: .string($0.ancestor), local: .string($0.local), server: .string($0.server), resolved: .string($0.kept))
        }
        return (.string(merged.text), conflicts)
    }

    /// A counter's merge: the server's value plus this device's change since the version both
    /// started from (`base`). A side without a value counts as the field's default (`0` unless
    /// the schema says otherwise): an older app version's record, or, without an ancestor, a copy
    /// made on each side, whose whole values add up. An `int` that would overflow keeps the
    /// server's value, and says so (`overflowed`: the caller keeps the conflict); a `double` adds
    /// in floating point, so devices that add the same changes in another order may differ in the
    /// last digit.
    static func count(base: SyncFieldValue?, mine: SyncFieldValue?, theirs: SyncFieldValue?, default zero: SyncFieldValue?) -> (value: SyncFieldValue?, overflowed: Bool) {
        let (start, local, server) = (base ?? zero, mine ?? zero, theirs ?? zero)
        switch (start ?? .int64(0), local ?? .int64(0), server ?? .int64(0)) {
        case (.int64(let start), .int64(let local), .int64(let server)):
            let (change, overflowedChange) = local.subtractingReportingOverflow(start)
            let (sum, overflowedSum) = server.addingReportingOverflow(change)
            return overflowedChange || overflowedSum ? (theirs, true) : (.int64(sum), false)
        default:
            guard let start = Self.double(start ?? .double(0)), let local = Self.double(local ?? .double(0)), let server = Self.double(server ?? .double(0)) else {
                return (theirs, false)  // not numbers: the validator allows `counter` on numbers alone
            }
            return (.double(server + (local - start)), false)
        }
    }

    /// A number as a double (an `int` read where a `double` was written, by an older version).
    private static func double(_ value: SyncFieldValue) -> Double? {
        switch value {
        case .double(let number): number
        case .int64(let number): Double(number)
        default: nil
        }
    }

    /// The server's list without what this device removed since the ancestor, then what this
    /// device added, in its order. A missing list is an empty one.
    static func union(base: SyncFieldValue?, mine: SyncFieldValue?, theirs: SyncFieldValue?) -> SyncFieldValue? {
        guard case .list(let local)? = mine ?? .list([]), case .list(let server)? = theirs ?? .list([]) else {
            return theirs  // not lists: the validator allows `union` on lists alone
        }
        let ancestor: [SyncFieldValue] = if case .list(let items)? = base { items } else { [] }
        let removed = Set(ancestor).subtracting(local)
        var result = server.filter { !removed.contains($0) }
        var present = Set(result)
        for item in local where !present.contains(item) && !ancestor.contains(item) {
            result.append(item)
            present.insert(item)
        }
        return .list(result)
    }

    /// The larger (or smaller) of two values, by their type's one order (`QueryValueOrder`, which
    /// queries sort by too); a side without a value yields to the other, and so does one that
    /// has no place in the order (a NaN). The same whichever side is this device's: both devices
    /// that merge the two keep the same value.
    static func extreme(_ mine: SyncFieldValue?, _ theirs: SyncFieldValue?, larger: Bool) -> SyncFieldValue? {
        guard let mine, let theirs else { return mine ?? theirs }
        let (mineIsOrdered, theirsIsOrdered) = (QueryValueOrder.compare(mine, mine) != nil, QueryValueOrder.compare(theirs, theirs) != nil)
        if mineIsOrdered != theirsIsOrdered { return mineIsOrdered ? mine : theirs }
        guard mineIsOrdered, let order = QueryValueOrder.compare(mine, theirs), order != 0 else {
            return either(mine, theirs)
        }
        return (order < 0) == larger ? theirs : mine
    }

    /// One of two values the order cannot tell apart (`1` and `1.0`, `0.0` and `-0.0`, two NaNs),
    /// chosen by what they are rather than by which side holds which.
    private static func either(_ one: SyncFieldValue, _ other: SyncFieldValue) -> SyncFieldValue {
        String(describing: one) >= String(describing: other) ? one : other
    }
}
