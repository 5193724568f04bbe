// An app that imports CloudKitGateway has CloudKit's types too (`CKContainer`,
// `CKShare.Metadata`): CloudKit itself on Apple platforms, and its stand-in elsewhere, so the same
// app code compiles in both worlds (docs/CloudKit.md).
#if canImport(CloudKit)
@_exported import CloudKit
#else
@_exported import CloudKitStandIn
#endif
