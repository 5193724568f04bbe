import Testing
import SyncRuntime
import SyncLocalCloud

@Suite("Routing: which database a record lives in, decided in one place")
struct RoutingTests {
    private let me = SyncConstants.currentUserOwnerName

    @Test func privateModelsRouteByOwner() {
        #expect(DatabaseScope.resolve(scopes: [.private], ownerName: me) == .private)
        #expect(DatabaseScope.resolve(scopes: [.private, .shared], ownerName: me) == .private)
        #expect(DatabaseScope.resolve(scopes: [.private, .shared], ownerName: "_alice") == .shared)
        #expect(DatabaseScope.resolve(scopes: [.private], ownerName: "") == .private)
    }

    @Test func publicModelsAlwaysRouteToThePublicDatabase() {
        #expect(DatabaseScope.resolve(scopes: [.public], ownerName: me) == .public)
        #expect(DatabaseScope.resolve(scopes: [.public], ownerName: "_alice") == .public)
    }

    @Test func publicIsToldByZoneNameNeverByOwner() {  // trap: T7.1
        // The private default zone and the public zone have the same owner name.
        let privateDefault = ZoneID(zoneName: "SomeZone", ownerName: me)
        #expect(privateDefault.scope == .private)
        #expect(SyncConstants.publicZone.scope == .public)
        #expect(SyncConstants.publicZone.ownerName == privateDefault.ownerName)
        #expect(ZoneID(zoneName: "SyncgenZone", ownerName: "_bob").scope == .shared)
    }

    @Test func savesAndDeletesShareOneRoutingRule() {
        let note = Note(recordName: "n", ownerName: me)
        #expect(note.zoneID() == ZoneID(zoneName: SyncConstants.defaultSyncZoneName, ownerName: me))
        #expect(note.makeRecord().id.zoneID == ZoneID.routing(scopes: Note.syncScopes, ownerName: me))
        let published = PublishedNote(recordName: "n", ownerName: "_someone")
        #expect(published.zoneID() == SyncConstants.publicZone)
        #expect(published.resolvedScope == .public)
        let item = ListItem(recordName: "i", ownerName: "_alice", assignee: .unset)
        #expect(item.zoneID(syncZoneName: "Lists") == ZoneID(zoneName: "Lists", ownerName: "_alice"))
        #expect(item.resolvedScope == .shared)
    }

    @Test func scopeIsDerivedFromTheZone() {
        let id = RecordID(recordName: "r", zoneID: SyncConstants.publicZone)
        #expect(id.scope == .public)
        #expect(RecordID(recordName: "r", zoneID: ZoneID(zoneName: "Z", ownerName: "_x")).scope == .shared)
    }

    @Test func aDraftAndItsProjectionAreTwoRecords() {  // trap: T3.1 (the push deduplicates by record ID, zone included)
        let draft = Note(recordName: "same").makeRecord()
        let projection = PublishedNote(recordName: "same").makeRecord()
        #expect(draft.id.recordName == projection.id.recordName)
        #expect(draft.id != projection.id)
        #expect(draft.id.scope == .private && projection.id.scope == .public)
    }

    /// A zone moved at run time routes its models to the last zone of its moves, for its own
    /// owner only; the public zone never moves. Breaking it (`resolve` following one move only):
    /// a zone moved twice routes to the zone in between.
    @Test func aMovedZoneRoutesToTheLastZoneOfItsMoves() {
        let personal = ZoneID(zoneName: "Personal", ownerName: me)
        let routes = ZoneRoutes(syncZoneName: "Main", moves: [personal: "Household", ZoneID(zoneName: "Household", ownerName: me): "Family"])
        #expect(routes.resolve(personal) == ZoneID(zoneName: "Family", ownerName: me))
        #expect(routes.zone(scopes: [.private], zoneName: "Personal", ownerName: me).zoneName == "Family")
        #expect(routes.zone(scopes: [.private, .shared], zoneName: "Personal", ownerName: "_bob") == ZoneID(zoneName: "Personal", ownerName: "_bob"))
        #expect(routes.zone(scopes: [.private], zoneName: nil, ownerName: me).zoneName == "Main")
        #expect(routes.zone(scopes: [.public], zoneName: nil, ownerName: me) == SyncConstants.publicZone)
        #expect(routes.hasMoved(personal) && !routes.hasMoved(ZoneID(zoneName: "Family", ownerName: me)))
    }

    @Test func schemaWordsMatchTheRuntimesScopes() {
        #expect(DatabaseScope.allCases.map(\.rawValue) == ["private", "shared", "public"])
    }
}
