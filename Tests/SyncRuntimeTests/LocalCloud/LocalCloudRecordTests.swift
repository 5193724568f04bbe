import Foundation
import Testing
import SyncRuntime
import SyncLocalCloud

/// "Records and fields" and "Requests" of docs/LocalCloud.md, each against both storage modes.
@Suite("LocalCloud: records, conflicts and request limits")
struct LocalCloudRecordTests {
    /// Apple's SDK header, CKRecordID.h: "Record names must be 255 characters or less. Most UTF-8
    /// characters are valid." Apple does not say which are not, nor what a leading underscore does:
    /// LocalCloud takes ASCII and refuses the underscore, the stricter reading (docs/LocalCloud.md).
    @Test(arguments: CloudMode.allCases)
    func recordNamesFollowCloudKitsRules(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        for name in ["", "_hidden", String(repeating: "x", count: 256), "caf\u{E9}"] {
            let result = try await phone.modify(ModifyRequest(recordsToSave: [record(name)]), in: .private)
            #expect(result.error(record(name).id)?.code == .invalidArguments, "\(name.prefix(10))")
        }
        try await phone.save([record(String(repeating: "x", count: 255))])
    }

    /// Apple, `CKRecord`: the system fields (`recordID`, `modificationDate`, `parent`, ...) are
    /// properties of every record, not keys an app sets; LocalCloud refuses them, and names that are
    /// not valid CloudKit field names, as keys (`CloudKitNaming`).
    @Test(arguments: CloudMode.allCases)
    func systemFieldNamesAreRefused(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        for field in ["recordID", "modificationDate", "etag", "parent", "1abc", "with space"] {
            let bad = record("r", fields: [field: .string("x")])
            let result = try await phone.modify(ModifyRequest(recordsToSave: [bad]), in: .private)
            #expect(result.error(bad.id)?.code == .invalidArguments, "\(field)")
        }
    }

    /// Apple, CloudKit Web Services Reference, "Data Size Limits": "Maximum record size (not
    /// including Asset fields): 1 MB". How bytes are counted is not published: `RecordSize` is
    /// LocalCloud's measure.
    @Test(arguments: CloudMode.allCases)
    func aRecordLargerThanOneMegabyteIsRefused(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let big = record("big", fields: ["blob": .bytes(Data(count: CloudKitLimits.maxRecordBytes))])
        let result = try await phone.modify(ModifyRequest(recordsToSave: [big]), in: .private)
        #expect(result.error(big.id)?.code == .limitExceeded)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.isEmpty == true)
    }

    /// CloudKit Web Services Reference, "Record Field Dictionary": a `DOUBLE` travels as a JSON
    /// number, which has no NaN and no infinity, and Apple's pages say nothing of what the native
    /// protocol does with them. The stricter reading: a save holding one (a double, a date, a
    /// location, in a list too) is `invalidArguments`, naming the field (`RecordRefusal`, the
    /// store's rule).
    @Test(arguments: CloudMode.allCases)
    func aNumberThatIsNotFiniteIsRefused(_ mode: CloudMode) async throws {  // trap: T21.21
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let values: [SyncFieldValue] = [
            .double(.nan), .double(-.infinity), .date(Date(timeIntervalSinceReferenceDate: .infinity)),
            .location(SyncLocation(latitude: .nan, longitude: 0)), .list([.double(1), .double(.infinity)]),
        ]
        for value in values {
            let refused = record("r", fields: ["value": value])
            let error = try await phone.modify(ModifyRequest(recordsToSave: [refused]), in: .private).error(refused.id)
            #expect(error?.code == .invalidArguments && error?.message.contains("'value'") == true, "\(value)")
        }
        let fine = record("r", fields: ["value": .double(-0.0)])
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [fine]), in: .private).error(fine.id) == nil)
    }

    /// Apple, `CKRecord.recordChangeTag`: "Every time CloudKit saves a record, the server updates the
    /// record's change token to a new value. ... If the two tokens don't match, the server checks your
    /// app's save policy"; `ifServerRecordUnchanged` then fails with `serverRecordChanged`.
    @Test(arguments: CloudMode.allCases)
    func everySaveGetsANewChangeTagAndAStaleTagConflicts(_ mode: CloudMode) async throws {  // trap: T20.1
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let first = try await phone.save([record("r", fields: ["title": .string("one")])])[0]
        var edit = first
        edit.fields["title"] = .string("two")
        let second = try await phone.save([edit])[0]
        #expect(first.changeTag != nil && second.changeTag != first.changeTag)
        // A save carrying the old tag, or none, conflicts and brings the server's record along.
        var stale = first
        stale.fields["title"] = .string("stale")
        let conflict = try await phone.modify(ModifyRequest(recordsToSave: [stale]), in: .private).error(stale.id)
        #expect(conflict?.code == .serverRecordChanged)
        #expect(conflict?.serverRecord?.fields["title"] == .string("two"))
        #expect(conflict?.serverRecord?.changeTag == second.changeTag)
        let untagged = record("r", fields: ["title": .string("fresh")])
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [untagged]), in: .private).error(untagged.id)?.code == .serverRecordChanged)
        // Saving onto the server record (its tag) succeeds.
        var merged = conflict!.serverRecord!
        merged.fields["title"] = .string("merged")
        try await phone.save([merged])
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records["r"]?.fields["title"] == .string("merged"))
    }

    /// Apple, `CKRecord.recordChangeTag` (`var recordChangeTag: String? { get }`): a client cannot
    /// set the tag, so a save "over the version I know" is a record rebuilt from that version's
    /// archived system fields (Apple, `CKRecord.encodeSystemFields(with:)`: "Encodes the record's
    /// system fields... use this method to save only the record's metadata"). LocalCloud bases a
    /// conditional save on the system fields alone: a record carrying the server's current tag
    /// but no system fields is a new record, and meets the server's. System fields of another
    /// record are refused. Breaking it: reading the expected tag from `changeTag` again lets the
    /// tag-only save through.
    @Test(arguments: CloudMode.allCases)
    func aSaveIsBasedOnItsSystemFieldsNotOnAChangeTag(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let saved = try await phone.save([record("r", fields: ["title": .string("one")]), record("other")])
        #expect(saved[0].systemFields != nil && saved[0].systemFields != saved[1].systemFields)
        var tagOnly = record("r", fields: ["title": .string("two")])
        tagOnly.changeTag = saved[0].changeTag
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [tagOnly]), in: .private).error(tagOnly.id)?.code == .serverRecordChanged)
        var foreign = record("r", fields: ["title": .string("two")])
        foreign.systemFields = saved[1].systemFields
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [foreign]), in: .private).error(foreign.id)?.code == .invalidArguments)
        let based = record("r", fields: ["title": .string("two")], basedOn: saved[0])
        let second = try await phone.save([based])[0]
        #expect(second.changeTag != saved[0].changeTag && second.systemFields != saved[0].systemFields)
        // Fetched, the record carries the system fields of its current version.
        let fetched = try await phone.fetchRecords([based.id], desiredKeys: nil, in: .private)[based.id]!.get()
        #expect(fetched.systemFields == second.systemFields)
    }

    /// Apple, `CKError.clientRecord` ("The local version of the record that includes any
    /// changes") and `CKError.ancestorRecord` ("The original version of the record"): a conflict
    /// carries both beside the server's record. LocalCloud knows one version back, so the ancestor
    /// comes only when the client's tag names it; the SDK header says the ancestor "may not have
    /// any key / value pairs set on it", so a client must do without it.
    @Test(arguments: CloudMode.allCases)
    func aConflictCarriesTheClientsRecordAndTheAncestorItKnows(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let first = try await phone.save([record("r", fields: ["title": .string("one")])])[0]
        var edit = first
        edit.fields["title"] = .string("two")
        let second = try await phone.save([edit])[0]
        var stale = first
        stale.fields["title"] = .string("stale")
        let conflict = try await phone.modify(ModifyRequest(recordsToSave: [stale]), in: .private).error(stale.id)
        #expect(conflict?.clientRecord?.fields["title"] == .string("stale"))
        #expect(conflict?.ancestorRecord?.fields["title"] == .string("one"))
        #expect(conflict?.ancestorRecord?.changeTag == first.changeTag)
        // Two saves behind, the ancestor is gone.
        var third = second
        third.fields["title"] = .string("three")
        try await phone.save([third])
        let older = try await phone.modify(ModifyRequest(recordsToSave: [stale]), in: .private).error(stale.id)
        #expect(older?.code == .serverRecordChanged && older?.ancestorRecord == nil)
        #expect(older?.serverRecord?.fields["title"] == .string("three"))
    }

    /// `changedKeys` and `allKeys` do not compare change tags (Apple, both pages: "This policy
    /// doesn't compare record change tags"). Neither removes a key the save leaves out: Apple's
    /// `allKeys` page says "It's possible for a server record to contain keys that aren't present
    /// locally... saving that same record modifies only those keys that you include".
    @Test(arguments: CloudMode.allCases)
    func changedKeysAndAllKeysSaveUnconditionallyAndKeepKeysLeftOut(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save([record("r", fields: ["a": .int64(1), "b": .int64(2)])])
        try await phone.save([record("r", fields: ["a": .int64(10)])], policy: .changedKeys)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records["r"]?.fields == ["a": .int64(10), "b": .int64(2)])
        try await phone.save([record("r", fields: ["a": .int64(20)])], policy: .allKeys)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records["r"]?.fields == ["a": .int64(20), "b": .int64(2)])
    }

    /// A save sends the keys it set, and a key set to nil removes it (Apple,
    /// `CKRecord.setObject(_:forKey:)`: "If you specify `nil`, CloudKit removes any object that
    /// the record associates with the key"; `CKModifyRecordsOperation.h` on the default
    /// policy: "Locally edited keys are sent to the server"). Under the default policy too, a key
    /// left out keeps its server value.
    @Test(arguments: CloudMode.allCases)
    func aSaveChangesOnlyTheKeysItSetsOrClears(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let first = try await phone.save([record("r", fields: ["a": .int64(1), "b": .int64(2), "secret": .string("x")])])[0]
        var next = record("r", fields: ["a": .int64(10)], basedOn: first)
        next.clearedKeys = ["secret"]
        try await phone.save([next])
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records["r"]?.fields == ["a": .int64(10), "b": .int64(2)])
    }

    /// Apple, `CKError.Code.unknownItem`: "An error that occurs when the specified record doesn't
    /// exist."
    @Test(arguments: CloudMode.allCases)
    func savingARecordTheServerDeletedIsUnknownItem(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let saved = try await phone.save([record("r")])[0]
        _ = try await phone.delete([saved.id])
        let result = try await phone.modify(ModifyRequest(recordsToSave: [saved]), in: .private)
        #expect(result.error(saved.id)?.code == .unknownItem)
    }

    /// Apple, `CKRecord.encryptedValues`: "Use the object this property returns to read and write
    /// encrypted key-value pairs that you store on the record."
    @Test(arguments: CloudMode.allCases)
    func encryptedValuesRoundTrip(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        var secret = record("r")
        secret.encryptedFields = ["pin": .string("1234")]
        try await phone.save([secret])
        let fetched = try await phone.fetchRecords([secret.id], desiredKeys: nil, in: .private)[secret.id]!.get()
        #expect(fetched.encryptedFields == ["pin": .string("1234")] && fetched.fields["pin"] == nil)
    }

    // MARK: - The schema

    /// Apple, `CKRecord`: "The first time you set a value for a key and save the record, the
    /// server associates that type with the key for all records of the same type. ... CloudKit
    /// enforces these constraints when you save records."
    @Test(arguments: CloudMode.allCases)
    func aFieldKeepsTheTypeItWasFirstSavedWith(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        try await phone.save([record("a", fields: ["count": .int64(1), "tags": .list([])])])
        // Another record of the type, another value of the same type: fine; another type: refused.
        try await phone.save([record("b", fields: ["count": .int64(2)])])
        let wrong = record("c", fields: ["count": .string("three")])
        let refused = try await phone.modify(ModifyRequest(recordsToSave: [wrong]), in: .private).error(wrong.id)
        #expect(refused?.code == .invalidArguments)
        #expect(refused?.message.contains("int64") == true)
        // An empty list fixed nothing; the first list with items does.
        try await phone.save([record("d", fields: ["tags": .list([.string("x")])])])
        let numbers = record("e", fields: ["tags": .list([.int64(1)])])
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [numbers]), in: .private).error(numbers.id)?.code == .invalidArguments)
        // Another record type has a schema of its own.
        try await phone.save([record("f", type: "Other", fields: ["count": .string("many")])])
        // Two records of one request that disagree on a new field: the second is refused.
        let first = record("g", fields: ["size": .double(1.5)]), second = record("h", fields: ["size": .int64(2)])
        let result = try await phone.modify(ModifyRequest(recordsToSave: [first, second]), in: .private)
        #expect(result.error(second.id)?.code == .invalidArguments)
        // The schema is the container's: the public database follows it too.
        let post = record("p", in: SyncConstants.publicZone, fields: ["count": .string("public")])
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [post]), in: .public).error(post.id)?.code == .invalidArguments)
    }

    /// Apple, `CKRecord.encryptedValues`: "CloudKit doesn't allow encryption on fields that already
    /// exist in your app's schema": a field is encrypted or not from its first save on.
    @Test(arguments: CloudMode.allCases)
    func aFieldsEncryptionNeverChanges(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        var secret = record("a", fields: ["title": .string("plain")])
        secret.encryptedFields = ["pin": .string("1234")]
        try await phone.save([secret])
        var plainPin = record("b", fields: ["pin": .string("0000")])
        var encryptedTitle = record("c", fields: [:])
        encryptedTitle.encryptedFields = ["title": .string("hidden")]
        let result = try await phone.modify(ModifyRequest(recordsToSave: [plainPin, encryptedTitle]), in: .private)
        #expect(result.error(plainPin.id)?.code == .invalidArguments)
        #expect(result.error(encryptedTitle.id)?.code == .invalidArguments)
        plainPin.fields = [:]
        plainPin.encryptedFields = ["pin": .string("0000")]
        try await phone.save([plainPin])
    }

    /// Apple, `CKRecord.encryptedValues`: "You can encrypt values of any data type that CloudKit
    /// supports, except CKAsset, which is encrypted by default, and CKRecord.Reference, which isn't
    /// encrypted so it remains available for server-side use. ... CloudKit doesn't allow
    /// encryption ... on records that you store in the public database."
    @Test(arguments: CloudMode.allCases)
    func encryptedValuesAreRefusedWhereCloudKitHasNone(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        func refusal(_ encrypted: RecordFields, in zone: ZoneID = myZone, scope: DatabaseScope = .private) async throws -> CloudErrorCode? {
            var bad = record("bad", in: zone, fields: [:])
            bad.encryptedFields = encrypted
            return try await phone.modify(ModifyRequest(recordsToSave: [bad]), in: scope).error(bad.id)?.code
        }
        #expect(try await refusal(["secret": .string("x")], in: SyncConstants.publicZone, scope: .public) == .invalidArguments)
        #expect(try await refusal(["owner": .reference(SyncReference(recordName: "a"))]) == .invalidArguments)
        #expect(try await refusal(["owners": .list([.reference(SyncReference(recordName: "a"))])]) == .invalidArguments)
        let file = harness.folder.appendingPathComponent("cover.jpg")
        try FileManager.default.createDirectory(at: harness.folder, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: file)
        #expect(try await refusal(["cover": .asset(SyncAsset(fileURL: file))]) == .invalidArguments)
        #expect(try await refusal(["note": .string("fine")]) == nil)
    }

    /// A list field has one element type (Apple, "Integrating a Text-Based Schema into Your
    /// Workflow": the schema language's `LIST<type>`), so a list of mixed values has no type the
    /// schema could give it; neither has a list of lists. Apple does not say what the server answers:
    /// LocalCloud refuses both, the stricter reading.
    @Test(arguments: CloudMode.allCases)
    func aListHoldsOneTypeOfValue(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let mixed = record("mixed", fields: ["values": .list([.string("a"), .int64(1)])])
        let nested = record("nested", fields: ["values": .list([.list([.string("a")])])])
        let result = try await phone.modify(ModifyRequest(recordsToSave: [mixed]), in: .private)
        #expect(result.error(mixed.id)?.code == .invalidArguments)
        let nestedResult = try await phone.modify(ModifyRequest(recordsToSave: [nested]), in: .private)
        #expect(nestedResult.error(nested.id)?.code == .invalidArguments)
    }

    /// Apple, `CKRecord.parent`: "The parent record must exist on the server when you save the child,
    /// or you must include the record in the same operation."
    @Test(arguments: CloudMode.allCases)
    func aParentMustExistOrComeInTheSameRequest(_ mode: CloudMode) async throws {  // trap: T3.2
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let orphan = record("child", parent: "missing")
        let result = try await phone.modify(ModifyRequest(recordsToSave: [orphan]), in: .private)
        #expect(result.error(orphan.id)?.code == .referenceViolation)
        // Parent and child together, in either order, are fine.
        try await phone.save([record("child", parent: "parent"), record("parent")])
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records["child"]?.parentRecordName == "parent")
    }

    /// Apple, `CKRecord.recordChangeTag`: "In some situations, setting a record as the parent of
    /// another record can cause the recordChangeTag to update on the parent record. This usually
    /// occurs when you save the child record." LocalCloud's strict reading: a save that links to a
    /// record (as parent or by reference) it did not link to before gives that record a new tag,
    /// without changing its fields or reporting it in the zone's feed.
    @Test(arguments: CloudMode.allCases)
    func linkingToARecordChangesItsChangeTag(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let saved = try await phone.save([record("list"), record("tag")])
        let token = try await phone.allZoneChanges(myZone).token
        let child = try await phone.save([record("item", fields: ["label": .reference(SyncReference(recordName: "tag"))], parent: "list")])[0]
        // Both targets' tags moved; their fields did not, and the feed reports only the child.
        var stale = saved[0]
        stale.fields["title"] = .string("renamed")
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [stale]), in: .private).error(stale.id)?.code == .serverRecordChanged)
        var staleTag = saved[1]
        staleTag.fields["title"] = .string("renamed")
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [staleTag]), in: .private).error(staleTag.id)?.code == .serverRecordChanged)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records["list"]?.fields == saved[0].fields)
        #expect(try await phone.allZoneChanges(myZone, since: token).records.map(\.id.recordName) == ["item"])
        // Saving the child again with the same links leaves the targets' tags alone.
        let fresh = try await phone.fetchRecords([stale.id], desiredKeys: nil, in: .private)[stale.id]!.get()
        var edited = child
        edited.fields["title"] = .string("edited")
        try await phone.save([edited])
        var renamed = fresh
        renamed.fields["title"] = .string("renamed")
        try await phone.save([renamed])
    }

    /// Apple, `CKRecord.Reference`: "Deleting the target (owner) record deletes all its source
    /// records"; "Data Size Limits": at most 750 "source references to a single target where the action
    /// is delete self".
    @Test(arguments: CloudMode.allCases)
    func deleteSelfReferencesCascadeAndAreLimited(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let target = record("target")
        let dependant = record("dependant", fields: ["owner": .reference(SyncReference(recordName: "target", action: .deleteSelf))])
        let bystander = record("bystander", fields: ["owner": .reference(SyncReference(recordName: "target", action: .none))])
        try await phone.save([target, dependant, bystander])
        _ = try await phone.delete([target.id])
        let zone = try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")!
        #expect(zone.records.keys.sorted() == ["bystander"])
        #expect(zone.tombstones == ["dependant", "target"])
        // At most 750 deleteSelf references may point at one record.
        try await phone.save([record("hub")])
        let references = (0..<CloudKitLimits.maxDeleteSelfReferencesPerTarget).map { index in
            record("ref\(index)", fields: ["hub": .reference(SyncReference(recordName: "hub", action: .deleteSelf))])
        }
        for chunk in stride(from: 0, to: references.count, by: CloudKitLimits.maxItemsPerRequest) {
            try await phone.save(Array(references[chunk..<min(chunk + CloudKitLimits.maxItemsPerRequest, references.count)]))
        }
        let oneTooMany = record("ref-extra", fields: ["hub": .reference(SyncReference(recordName: "hub", action: .deleteSelf))])
        #expect(try await phone.modify(ModifyRequest(recordsToSave: [oneTooMany]), in: .private).error(oneTooMany.id)?.code == .limitExceeded)
    }

    // MARK: - Requests

    /// Apple, `CKError.Code.limitExceeded`: "An error that occurs when a request's size exceeds the
    /// limit"; the SDK header: "Retry this request as a smaller batch". Apple's limitExceeded page
    /// names 400 items, its current CKSyncEngine page 250 records per request, saves and
    /// deletions together: LocalCloud takes the stricter, `CloudKitLimits.maxItemsPerRequest`.
    /// One item more fails the whole request and writes nothing.
    @Test(arguments: CloudMode.allCases)
    func moreItemsThanARequestTakesIsLimitExceeded(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let limit = CloudKitLimits.maxItemsPerRequest
        #expect(limit == 250)
        let records = (0...limit).map { record("r\($0)") }
        let error = await cloudError { _ = try await phone.modify(ModifyRequest(recordsToSave: records), in: .private) }
        #expect(error?.code == .limitExceeded)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.isEmpty == true)
        try await phone.save(Array(records.prefix(limit)))
    }

    /// Apple, `CKError.Code.limitExceeded`: "An error that occurs when a request's size exceeds the
    /// limit". Apple publishes no byte limit for a request; LocalCloud takes 2 MB of records, the
    /// number of ../shared/spec/cloudkit-semantics.md.
    @Test(arguments: CloudMode.allCases)
    func moreThanTwoMegabytesIsLimitExceeded(_ mode: CloudMode) async throws {  // trap: T20.7
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let records = (0..<3).map { record("r\($0)", fields: ["blob": .bytes(Data(count: 800_000))]) }
        let error = await cloudError { _ = try await phone.modify(ModifyRequest(recordsToSave: records), in: .private) }
        #expect(error?.code == .limitExceeded)
        // Split in half, each half goes through.
        try await phone.save(Array(records.prefix(2)))
        try await phone.save(Array(records.suffix(1)))
    }

    /// Apple, `CKError.Code.invalidArguments`: "An error that occurs when the request contains
    /// invalid information" (the SDK header: "Bad client request (bad record graph ...)"). Apple does
    /// not say what one record twice in a request does: LocalCloud refuses the whole request, the
    /// stricter reading.
    @Test(arguments: CloudMode.allCases)
    func theSameRecordTwiceInOneRequestFailsTheWholeRequest(_ mode: CloudMode) async throws {  // trap: T3.1
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let error = await cloudError { _ = try await phone.modify(ModifyRequest(recordsToSave: [record("a"), record("b"), record("a")]), in: .private) }
        #expect(error?.code == .invalidArguments)
        let saveAndDelete = await cloudError { _ = try await phone.modify(ModifyRequest(recordsToSave: [record("c")], recordIDsToDelete: [record("c").id]), in: .private) }
        #expect(saveAndDelete?.code == .invalidArguments)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.isEmpty == true)
    }

    /// Apple, `CKRecordZone.Capabilities.atomic`: "if the server is unable to save the changes for one
    /// record, it doesn't save the changes for any of the records"; `CKError.Code.batchRequestFailed`:
    /// "An error that occurs when the system rejects the entire batch of changes."
    @Test(arguments: CloudMode.allCases)
    func aCustomZoneCommitsAtomically(_ mode: CloudMode) async throws {  // trap: T20.5
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let good = record("good")
        let bad = record("bad", parent: "missing")
        let result = try await phone.modify(ModifyRequest(recordsToSave: [good, bad]), in: .private)
        #expect(result.error(bad.id)?.code == .referenceViolation)
        #expect(result.error(good.id)?.code == .batchRequestFailed)
        let failure = try #require(result.partialFailure)
        #expect(failure.code == .partialFailure && failure.itemErrors.count == 2)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.isEmpty == true)
    }

    /// Apple, `CKModifyRecordsOperation.isAtomic`: "A Boolean value that indicates whether the
    /// entire operation fails when CloudKit can't update one or more records in a record zone";
    /// true by default. Turned off, each item of a custom zone succeeds or fails alone.
    @Test(arguments: CloudMode.allCases)
    func atomicCommitsCanBeTurnedOff(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let good = record("good")
        let bad = record("bad", parent: "missing")
        let result = try await phone.modify(ModifyRequest(recordsToSave: [good, bad], isAtomic: false), in: .private)
        #expect(result.error(bad.id)?.code == .referenceViolation)
        #expect(result.error(good.id) == nil)
        #expect(try harness.cloud.snapshot().zone("Zone", ofAccount: "alice")?.records.keys.sorted() == ["good"])
    }

    /// Apple, `CKRecordZone.defaultRecordZone()`: "You cannot save a group of records to iCloud
    /// atomically in the default zone."
    @Test(arguments: CloudMode.allCases)
    func theDefaultZonesCommitItemByItem(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try harness.device("phone", "alice")
        let good = record("good", type: "Post", in: SyncConstants.publicZone)
        let bad = record("bad", type: "Post", in: SyncConstants.publicZone, parent: "missing")
        let result = try await phone.modify(ModifyRequest(recordsToSave: [good, bad]), in: .public)
        #expect(result.error(bad.id)?.code == .referenceViolation)
        #expect(result.error(good.id) == nil)
        #expect(result.partialFailure?.itemErrors.keys.map(\.recordName) == ["bad"])
        #expect(try harness.cloud.snapshot().publicRecords.keys.sorted() == ["good"])
    }

    /// Apple, `CKError.Code.unknownItem`: "An error that occurs when the specified record doesn't
    /// exist."
    @Test(arguments: CloudMode.allCases)
    func deletingAnUnknownRecordIsUnknownItem(_ mode: CloudMode) async throws {
        let harness = try CloudHarness(mode)
        let phone = try await harness.deviceWithZone("phone", "alice")
        let result = try await phone.delete([record("nobody").id])
        #expect(result.error(record("nobody").id)?.code == .unknownItem)
    }

    /// Apple, `CKContainer.publicCloudDatabase`: "The contents of the public database are readable
    /// by all users of the app, and users have write access to the records, and other objects,
    /// they create"; anyone else's write is `CKError.Code.permissionFailure` ("the user doesn't
    /// have permission to save or fetch data").
    @Test(arguments: CloudMode.allCases)
    func onlyTheCreatorChangesAPublicRecord(_ mode: CloudMode) async throws {  // trap: T10.7
        let harness = try CloudHarness(mode)
        let alice = try harness.device("alice-phone", "alice")
        let bob = try harness.device("bob-phone", "bob")
        let post = try await alice.save([record("post", type: "Post", in: SyncConstants.publicZone)], in: .public)[0]
        var edit = post
        edit.fields["title"] = .string("bob was here")
        #expect(try await bob.modify(ModifyRequest(recordsToSave: [edit]), in: .public).error(post.id)?.code == .permissionFailure)
        #expect(try await bob.delete([post.id], in: .public).error(post.id)?.code == .permissionFailure)
        #expect(try await alice.delete([post.id], in: .public).error(post.id) == nil)
    }
}
