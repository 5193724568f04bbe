/// The schema's models, known from the start: looked up by record type, with what the engine
/// needs to know about each (scopes, parent type, catalogs). Built once at construction, so a
/// model cannot be registered too late and silently never sync.
struct ModelRegistry: Sendable {
    let types: [any SyncModel.Type]
    private let byRecordType: [String: any SyncModel.Type]

    init(_ types: [any SyncModel.Type]) {
        self.types = types
        var index: [String: any SyncModel.Type] = [:]
        for type in types where index[type.recordType] == nil { index[type.recordType] = type }
        byRecordType = index
    }

    func type(forRecordType recordType: String) -> (any SyncModel.Type)? {
        byRecordType[recordType]
    }

    /// Public models, read by catalog queries.
    var catalogTypes: [any PublicCatalogModel.Type] {
        types.compactMap { $0 as? any PublicCatalogModel.Type }
    }

    /// Models that can live in the private or shared database.
    var zonedTypes: [any SyncModel.Type] {
        types.filter { $0.syncScopes.contains(.private) }
    }

    /// Models whose records may be in a shared zone.
    var sharedTypes: [any SyncModel.Type] {
        types.filter { $0.syncScopes.contains(.shared) }
    }

    /// The parent type of a model, if any.
    func parentType(of type: any SyncModel.Type) -> (any SyncModel.Type)? {
        type.parentRecordType.flatMap { byRecordType[$0] }
    }
}
