import Foundation
import SyncRuntime
import SyncLocalCloud
import SyncTesting

/// The Notes story: Alice, Bob and Carol, five devices, one LocalCloud file. Each step says what
/// happens and shows what every device sees; the end checks that every device agrees.
struct Story {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notes-demo-\(UUID().uuidString)")
    let clock = ManualClock()
    private(set) var problems: [String] = []

    mutating func tell() async throws -> Bool {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cloud = try LocalCloud.file(at: folder.appendingPathComponent("cloud.sqlite"), clock: clock,
            configuration: LocalCloud.Configuration(downloadsFolder: folder.appendingPathComponent("downloads"), deployedIndexes: SyncSchema.deployedIndexes))
        print("notes-demo: one LocalCloud file at \(folder.path), five devices, each with its own store\n")
        for (account, given) in [("alice", "Alice"), ("bob", "Bob")] {
            var name = PersonNameComponents()
            name.givenName = given
            try cloud.addAccount(account, name: name)
        }
        let alicePhone = try Device(name: "alice-phone", account: "alice", cloud: cloud, folder: folder, clock: clock)
        let aliceLaptop = try Device(name: "alice-laptop", account: "alice", cloud: cloud, folder: folder, clock: clock)
        let bobPhone = try Device(name: "bob-phone", account: "bob", cloud: cloud, folder: folder, clock: clock)
        let reader = try Device(name: "carol-tablet", account: "carol", cloud: cloud, folder: folder, clock: clock)

        step(1, "Alice writes notes offline on her phone and her laptop")
        cloud.setNetworkAvailable(false, for: alicePhone.name)
        cloud.setNetworkAvailable(false, for: aliceLaptop.name)
        try alicePhone.store.save(Note(recordName: "note-milk", title: "Buy milk", body: "Oat, 2 litres"))
        try alicePhone.store.save(Note(recordName: "note-call", title: "Call the plumber", body: "Before Friday"))
        try aliceLaptop.store.save(Note(recordName: "note-trip", title: "Plan the trip", body: "Lisbon in May"))
        say("offline, the phone has \(alicePhone.notes.count) notes and the laptop \(aliceLaptop.notes.count); nothing has left either device")
        cloud.setNetworkAvailable(true, for: alicePhone.name)
        cloud.setNetworkAvailable(true, for: aliceLaptop.name)
        await alicePhone.sync()
        await aliceLaptop.sync()
        await alicePhone.sync()
        say("back online and synced: phone \(titles(alicePhone.notes)), laptop \(titles(aliceLaptop.notes))")
        expect(alicePhone.notes.count == 3 && aliceLaptop.notes == alicePhone.notes, "Alice's devices should hold the same 3 notes")
        cloud.setNetworkAvailable(false, for: aliceLaptop.name)
        let searchBox = Query<Note>().matching("MILK lit")
        let found = try aliceLaptop.store.fetch(searchBox)
        let marked = found.compactMap { searchBox.snippet(of: $0) }.flatMap { snippet in snippet.matches.map { String(snippet.text[$0]) } }
        say("offline, the laptop's search box finds \(titles(found)) for \"MILK lit\" (\"milk\" in its title, \"litres\" in its body): the phone's note, pulled; case aside, the last word as it is typed (marked: \(marked.joined(separator: ", ")))")
        expect(found.map(\.recordName) == ["note-milk"] && marked == ["milk"], "the laptop should find the phone's note offline")
        cloud.setNetworkAvailable(true, for: aliceLaptop.name)

        step(2, "Alice makes a \"Groceries\" list on her phone and, offline, on her laptop too")
        cloud.setNetworkAvailable(false, for: aliceLaptop.name)
        try aliceLaptop.store.save(SharedList(recordName: "groceries-laptop", title: "Groceries"))
        try aliceLaptop.store.save(ListItem(recordName: "item-coffee", parent: RecordReference(recordName: "groceries-laptop"), text: "Coffee", assignee: .unset))
        try alicePhone.store.save(SharedList(recordName: "groceries", title: "Groceries"))
        try alicePhone.store.save(ListItem(recordName: "item-milk", parent: RecordReference(recordName: "groceries"), text: "Milk", assignee: .unset))
        try alicePhone.store.save(ListItem(recordName: "item-bread", parent: RecordReference(recordName: "groceries"), text: "Bread", assignee: .unset))
        await alicePhone.sync()
        cloud.setNetworkAvailable(true, for: aliceLaptop.name)
        await aliceLaptop.sync()
        await alicePhone.sync()
        let lists = { (device: Device) in (try? device.store.fetchAll(SharedList.self).map(\.recordName).sorted()) ?? [] }
        say("a list's title is its natural key (`unique: [title]`): the two lists became one, \"groceries\" (the smaller name), with the laptop's Coffee moved in: phone \(texts(alicePhone.items)), laptop \(texts(aliceLaptop.items))")
        expect(lists(alicePhone) == ["groceries"] && lists(aliceLaptop) == ["groceries"] && Set(alicePhone.items.map(\.text)) == ["Milk", "Bread", "Coffee"]
            && aliceLaptop.items.map(\.recordName) == alicePhone.items.map(\.recordName), "Alice's devices should hold one \"Groceries\" with Milk, Bread and Coffee")

        step(3, "Alice shares the grocery list with Bob, and Bob adds to it")
        await bobPhone.sync()
        let groceries = try alicePhone.store.fetch(SharedList.self, recordName: "groceries")!
        let share = try await alicePhone.engine.share(groceries, with: [ShareParticipant(userRecordName: LocalCloud.userRecordName(forAccount: "bob"), permission: .readWrite)])
        say("Alice shares \"\(groceries.title)\" (share \(share.id.recordName)) with Bob, read-write; the list and its share went up in one request")
        try await bobPhone.engine.acceptShare(cloud.shareMetadata(for: share, ownerAccount: "alice"))
        say("Bob accepts: his phone shows \"\(try bobPhone.store.fetch(SharedList.self, recordName: "groceries")?.title ?? "?")\" at once; its items follow in the background")
        await bobPhone.sync()
        say("and after that pass: \(texts(bobPhone.items))")
        try bobPhone.store.save(Member(recordName: "member-bob", ownerName: LocalCloud.userRecordName(forAccount: "alice"), parent: RecordReference(recordName: "groceries"), displayName: "Bob"))
        try bobPhone.store.save(ListItem(recordName: "item-eggs", ownerName: LocalCloud.userRecordName(forAccount: "alice"), parent: RecordReference(recordName: "groceries"), text: "Eggs", assignee: RecordReference(recordName: "member-bob")))
        await bobPhone.sync()
        await alicePhone.sync()
        let eggs = try alicePhone.store.fetch(ListItem.self, recordName: "item-eggs")
        let assignee = try eggs.flatMap { try alicePhone.store.fetch(Member.self, recordName: $0.assignee.recordName) }
        say("Bob adds \"Eggs\" for himself; Alice's phone now shows \(texts(alicePhone.items)), Eggs assigned to \(assignee?.displayName ?? "nobody")")
        expect(eggs != nil && assignee?.displayName == "Bob", "Alice should see Bob's item, assigned to Bob")

        step(4, "Alice and Bob edit the same item at the same time")
        var aliceMilk = try alicePhone.store.fetch(ListItem.self, recordName: "item-milk")!
        aliceMilk.text = "Oat milk"
        aliceMilk.quantity = 2
        try alicePhone.store.save(aliceMilk)
        clock.advance(by: 5)
        var bobMilk = try bobPhone.store.fetch(ListItem.self, recordName: "item-milk")!
        bobMilk.text = "Whole milk"
        bobMilk.priority = .urgent
        try bobPhone.store.save(bobMilk)
        say("Alice: \"Oat milk\", 2 of them; five seconds later Bob: \"Whole milk\", and urgent")
        await alicePhone.sync()
        await bobPhone.sync()
        await alicePhone.sync()
        let merged = try alicePhone.store.fetch(ListItem.self, recordName: "item-milk")!
        say("merged field by field: text \"\(merged.text)\" (the later edit wins), quantity \(Int(merged.quantity)) (only Alice changed it), priority \(merged.priority.rawValue) (only Bob changed it: an enum, synced as its case's name)")
        expect(merged.text == "Whole milk" && merged.quantity == 2 && merged.priority == .urgent, "the conflict should keep Bob's text and priority, and Alice's quantity")
        let bobsMilk = try bobPhone.store.fetch(ListItem.self, recordName: "item-milk")
        expect(bobsMilk?.text == merged.text && bobsMilk?.quantity == merged.quantity && bobsMilk?.priority == .urgent, "Alice and Bob should see the same milk")

        step(5, "Alice and Bob each take an egg, offline, and each fix a typo in the eggs' note")
        let typos = "Free-range, from the farm shop on Saturady; the big box if they have it, otherwise two smal ones."
        let fixed = "Free-range, from the farm shop on Saturday; the big box if they have it, otherwise two small ones."
        var dozen = try alicePhone.store.fetch(ListItem.self, recordName: "item-eggs")!
        (dozen.quantity, dozen.note) = (12, typos)
        try alicePhone.store.save(dozen)
        await alicePhone.sync()
        await bobPhone.sync()
        say("the eggs are 12, with a note: \"\(typos)\"")
        for phone in [alicePhone, bobPhone] { cloud.setNetworkAvailable(false, for: phone.name) }
        // Each reads the count and changes it in one transaction: a pull landing in between
        // would otherwise be counted as the phone's own change.
        for (phone, typo, fix) in [(alicePhone, "Saturady", "Saturday"), (bobPhone, "smal ", "small ")] {
            try phone.store.write { writer in
                guard var eggs = try writer.fetch(ListItem.self, recordName: "item-eggs") else { return }
                eggs.quantity -= 1
                eggs.note = eggs.note?.replacingOccurrences(of: typo, with: fix)
                try writer.save(eggs)
            }
            clock.advance(by: 5)
        }
        say("offline, each phone shows 11 eggs; Alice fixed \"Saturady\", five seconds later Bob fixed \"smal\"")
        for phone in [alicePhone, bobPhone] { cloud.setNetworkAvailable(true, for: phone.name) }
        await alicePhone.sync()
        await bobPhone.sync()
        await alicePhone.sync()
        let eggsOn = { (device: Device) in try device.store.fetch(ListItem.self, recordName: "item-eggs") }
        let (alicesEggs, bobsEggs) = (try eggsOn(alicePhone), try eggsOn(bobPhone))
        say("back online, both phones show \(Int(alicesEggs?.quantity ?? 0)) eggs (`merge: counter` adds both changes up; the last writer would leave 11) and the note \"\(alicesEggs?.note ?? "")\" (`merge: text` keeps both fixes)")
        expect(alicesEggs?.quantity == 10 && bobsEggs?.quantity == 10, "two eggs taken of twelve should leave ten on both phones")
        expect(alicesEggs?.note == fixed && bobsEggs?.note == fixed, "both typo fixes should survive on both phones")

        step(6, "Alice gives a note a cover photo and a thumbnail, and publishes it; her laptop and a reader's devices see it")
        let photo = Data((0..<48_128).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let thumbnail = Data((0..<3_072).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try await alicePhone.engine.attachAsset(photo, suffix: "jpg", to: \Note.cover, recordName: "note-trip")
        try await alicePhone.engine.attachAsset(thumbnail, suffix: "png", to: \Note.thumbnail, recordName: "note-trip")
        try await alicePhone.engine.publish(try alicePhone.store.fetch(Note.self, recordName: "note-trip")!)
        await alicePhone.sync()
        let uploaded = try cloud.counters()["assetBytes.uploaded"] ?? 0
        say("Alice attaches a 47 KB cover and a 3 KB thumbnail and publishes: the note went up first, then each file on its own, the cover for the draft and for the public copy, the thumbnail for the draft only (the public copy declares no thumbnail): \(uploaded / 1024) KB uploaded")
        expect(uploaded == 2 * Int64(photo.count) + Int64(thumbnail.count), "the cover should be uploaded for the draft and its public copy, the thumbnail for the draft only")
        await aliceLaptop.sync()
        try await aliceLaptop.engine.requestAssetDownload(for: \Note.thumbnail, recordName: "note-trip")
        await aliceLaptop.sync()
        let fetchedByLaptop = try cloud.counters()["assetBytes.downloaded"] ?? 0
        let laptopThumbnail = try await aliceLaptop.engine.assetFileURL(for: \Note.thumbnail, recordName: "note-trip")
        let laptopCover = try await aliceLaptop.engine.assetEntry(for: \Note.cover, recordName: "note-trip")
        say("Alice's laptop knows both files and fetches only the thumbnail it lists notes with (\(fetchedByLaptop / 1024) KB); the cover stays \(laptopCover.map { "\($0.state)" } ?? "unknown"), in the cloud until she opens the note")
        expect(laptopThumbnail.flatMap { try? Data(contentsOf: $0) } == thumbnail && laptopCover?.state == .remote && fetchedByLaptop == Int64(thumbnail.count), "the laptop should download the thumbnail only")
        await reader.sync()
        await reader.sync()
        let published = try reader.store.fetchAll(PublishedNote.self).filter(\.publicationLifecycle.isVisibleInCatalog)
        let beforeAsking = try (cloud.counters()["assetBytes.downloaded"] ?? 0) - fetchedByLaptop
        say("Carol's tablet lists \(published.map { "\"\($0.title)\"" }.joined(separator: ", ")); the cover is known (\(published.first?.cover.map { "\($0.suffix), \($0.byteSize / 1024) KB" } ?? "none")) and, after two passes, not downloaded: \(beforeAsking) bytes transferred")
        say("the draft's body and thumbnail stay private: the public copy has neither field")
        expect(published.map(\.title) == ["Plan the trip"] && beforeAsking == 0, "the reader should see the published note, without its cover's bytes")
        try await reader.engine.requestAssetDownload(for: \PublishedNote.cover, recordName: "note-trip")
        await reader.sync()
        await reader.sync()
        let downloaded = try (cloud.counters()["assetBytes.downloaded"] ?? 0) - fetchedByLaptop
        let cover = try await reader.engine.assetFileURL(for: \PublishedNote.cover, recordName: "note-trip")
        say("Carol opens the note: the cover is downloaded once (\(downloaded / 1024) KB, still \(downloaded / 1024) KB after another pass) to \(cover?.lastPathComponent ?? "nowhere")")
        expect(cover.flatMap { try? Data(contentsOf: $0) } == photo && downloaded == Int64(photo.count), "the reader's cover should be Alice's photo, downloaded once")
        // Public data too large to mirror: the cloud answers a typed query, a page at a time.
        for (name, title) in [("note-trip-budget", "Trip budget"), ("note-trip-photos", "Trip photos")] {
            let note = Note(recordName: name, title: title, body: "draft")
            try alicePhone.store.save(note)
            try await alicePhone.engine.publish(note)
        }
        await alicePhone.sync()
        // Carol's watch copies no catalog whole: it reads the public notes by server queries only.
        let watch = try Device(name: "carol-watch", account: "carol", cloud: cloud, folder: folder, clock: clock, mirroredCatalogs: [])
        await watch.sync()
        let search = ServerQuery<PublishedNote>().matching("trip").sorted(by: \.createdAt, .descending).limit(2)
        let onScreen = ResultRetention(maximumCount: 2)
        let firstPage = try await watch.engine.query(search, keeping: onScreen)
        let heldAfterFirst = try watch.store.fetchAll(PublishedNote.self).count
        var secondPage: ServerQueryPage<PublishedNote>?
        if let next = firstPage.next { secondPage = try await watch.engine.query(search, after: next, keeping: onScreen) }
        let pages = [firstPage.models, secondPage?.models ?? []].map { $0.map { "\"\($0.title)\"" }.joined(separator: ", ") }
        let held = try watch.store.fetchAll(PublishedNote.self).map(\.title)
        say("Carol's watch mirrors no catalog: it searches the public notes for \"trip\" on the server, newest first, two a page, keeping at most two: \(pages[0]), then \(pages[1]); it held \(heldAfterFirst) notes after the first page and holds \(held.map { "\"\($0)\"" }.joined(separator: ", ")) now, never the rest")
        expect(
            firstPage.models.map(\.title) == ["Trip photos", "Trip budget"] && secondPage?.models.map(\.title) == ["Plan the trip"] && secondPage?.next == nil,
            "the search should page through the three published trip notes, newest first")
        expect(heldAfterFirst == 2 && held.count == 2 && held.contains("Plan the trip"), "the watch should hold at most two kept results, the page it shows among them")
        cloud.setNetworkAvailable(false, for: "carol-watch")
        var offlineAnswer = "an answer"
        do {
            _ = try await watch.engine.query(search, keeping: onScreen)
        } catch {
            offlineAnswer = "\(error.recovery)"
        }
        let offline = try watch.store.fetch(Query<PublishedNote>().filter(\.title == "Plan the trip")).map(\.title)
        say("offline, the watch still shows \(offline.map { "\"\($0)\"" }.joined()) from its store; asking the cloud again says \(offlineAnswer)")
        expect(offline == ["Plan the trip"] && offlineAnswer == "retryWhenOnline", "the watch should show its kept result offline and be told to retry when online")
        cloud.setNetworkAvailable(true, for: "carol-watch")

        step(7, "Alice deletes an item, and it disappears everywhere")
        try alicePhone.store.delete(ListItem.self, recordName: "item-bread")
        for _ in 0..<2 {
            for device in [alicePhone, aliceLaptop, bobPhone, reader] { await device.sync() }
        }
        say("Alice's phone \(texts(alicePhone.items)), laptop \(texts(aliceLaptop.items)), Bob's phone \(texts(bobPhone.items))")
        // The same records, though each account names the zone's owner its own way.
        let contents = { (device: Device) in device.items.map { "\($0.recordName) \($0.text) \($0.quantity) \($0.done)" } }
        expect(alicePhone.items.count == 3 && contents(aliceLaptop) == contents(alicePhone) && contents(bobPhone) == contents(alicePhone), "every device should hold the same 3 items")
        expect(aliceLaptop.notes == alicePhone.notes, "Alice's devices should hold the same notes")
        expect(bobPhone.notes.isEmpty, "Bob never sees Alice's private notes")
        // Each list with its number of open items and their quantity, in one statement per device.
        let count = Aggregate<ListItem, Int>.count
        let quantity = Aggregate<ListItem, Double>.sum(\.quantity)
        let perList = { (device: Device) in
            (try? device.store.fetch(Query<ListItem>().filter(\.done == false).groupedByParent(count, quantity)))?.map { "\($0.key ?? "-"): \($0[count]) open, \($0[quantity]) in all" } ?? []
        }
        say("each list with its open items: Alice's phone \(perList(alicePhone)), Bob's phone \(perList(bobPhone))")
        expect(perList(alicePhone) == perList(bobPhone) && perList(alicePhone).count == 1, "Alice and Bob should count the same open items in the one list")

        step(8, "Alice keeps a journal in a zone of her own, beside the list she shares")
        try alicePhone.store.save(JournalEntry(recordName: "journal-monday", text: "Bob joined the groceries"))
        for device in [alicePhone, aliceLaptop, bobPhone] { await device.sync() }
        let journal = { (device: Device) in (try? device.store.fetchAll(JournalEntry.self).map(\.text)) ?? [] }
        let personal = try cloud.snapshot().zone(JournalEntry.zoneName!, ofAccount: "alice")?.records.values.map(\.recordType) ?? []
        say("her laptop reads \(journal(aliceLaptop)); Bob, who shares her list, reads \(journal(bobPhone)); in the cloud the entry is in her \"\(JournalEntry.zoneName!)\" zone (\(personal)), apart from the list's")
        expect(journal(aliceLaptop) == ["Bob joined the groceries"] && journal(bobPhone).isEmpty && personal == ["JournalEntry"],
            "Alice's journal should reach her laptop only, in her Personal zone")

        step(9, "Alice sees who shares the list and who added what, and removes Bob")
        let people = { (share: ShareRecord?) in
            share?.participants.filter { $0.role != .owner }.map { "\($0.userRecordName ?? "?") (\($0.permission.rawValue), \($0.acceptanceStatus.rawValue))" } ?? []
        }
        let shared = try alicePhone.store.knownShare(of: groceries)
        say("Alice's phone knows, offline, that \"\(groceries.title)\" is shared with \(people(shared).joined(separator: ", "))")
        // Who added an item is the cloud's (never a field of the model); their name is the share's.
        let addedBy = try alicePhone.items.map { item in
            let adder = shared?.participant(named: try alicePhone.store.authorship(of: item).createdBy)
            return "\(item.text) by \(adder?.nameComponents?.givenName ?? "someone")"
        }
        say("and who added each item: \(addedBy.sorted().joined(separator: ", "))")
        expect(addedBy.contains("Eggs by Bob") && addedBy.contains("Coffee by Alice"), "Alice should see that Bob added Eggs and she added Coffee")
        if let bob = shared?.participants.first(where: { $0.userRecordName == LocalCloud.userRecordName(forAccount: "bob") }) {
            _ = try await alicePhone.engine.removeParticipant(bob, from: groceries)
        }
        await bobPhone.sync()
        await alicePhone.sync()
        say("after Bob's next pass his phone holds the lists \(lists(bobPhone)) and the items \(texts(bobPhone.items)); Alice's share lists \(people(try alicePhone.store.knownShare(of: groceries)))")
        expect(lists(bobPhone).isEmpty && bobPhone.items.isEmpty, "Bob's phone should no longer hold Alice's list")
        expect(people(try alicePhone.store.knownShare(of: groceries)).isEmpty && alicePhone.items.count == 3, "Alice's list should be hers alone, with its 3 items")

        let records = try cloud.snapshot().zones.reduce(0) { $0 + $1.records.count }
        print("")
        if problems.isEmpty {
            print("notes-demo: ok: 5 devices, 3 accounts, \(records) records in the cloud, every device agrees")
            return true
        }
        print("notes-demo: FAILED: \(problems.count) divergence\(problems.count == 1 ? "" : "s"):")
        for problem in problems { print("  - \(problem)") }
        return false
    }

    private func step(_ number: Int, _ title: String) {
        print("\(number). \(title)")
    }

    private func say(_ line: String) {
        print("   \(line)")
    }

    private mutating func expect(_ condition: Bool, _ problem: String) {
        if !condition {
            problems.append(problem)
            print("   ! \(problem)")
        }
    }

    private func titles(_ notes: [Note]) -> String { "[" + notes.map { "\"\($0.title)\"" }.joined(separator: ", ") + "]" }
    private func texts(_ items: [ListItem]) -> String { "[" + items.map(\.text).joined(separator: ", ") + "]" }
}
