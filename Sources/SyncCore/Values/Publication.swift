import Foundation

/// Whether a public catalog record shows to readers.
public enum PublicationState: String, Hashable, Sendable, Codable, CaseIterable {
    /// Visible in the catalog.
    case listed
    /// Published but hidden: waiting for review, or taken down.
    case delisted
}

/// The publication lifecycle of a governed catalog record. The publishing device owns `state`,
/// `version` and `publishedAt`; the server owns the review fields, which are never uploaded, so a
/// client's update can never overwrite a review verdict.
public struct PublicationLifecycle: Hashable, Sendable, Codable {
    /// Where the record stands: draft, published, unpublished, taken down.
    public var state: PublicationState
    /// Bumped by every publish of new content.
    public var version: Int64
    /// When the record was first published; set once.
    public var publishedAt: Date?
    /// The review verdict, as the server reports it ("approved", "rejected", ...).
    public var reviewState: String?
    /// What the reviewer wrote, as the server reports it.
    public var reviewNote: String?
    /// The `version` the review applies to.
    public var reviewedVersion: Int64?

    /// A lifecycle; the review fields are the server's to fill in.
    public init(
        state: PublicationState, version: Int64 = 0, publishedAt: Date? = nil, reviewState: String? = nil,
        reviewNote: String? = nil, reviewedVersion: Int64? = nil
    ) {
        self.state = state
        self.version = version
        self.publishedAt = publishedAt
        self.reviewState = reviewState
        self.reviewNote = reviewNote
        self.reviewedVersion = reviewedVersion
    }

    /// Whether readers should see the record: listed. Consumers filter catalogs with this.
    public var isVisibleInCatalog: Bool { state == .listed }
}

extension EncodedFields {
    /// Writes the lifecycle fields the publishing device owns; the review fields are the server's
    /// and never leave the device.
    @inlinable
    package mutating func encodePublicationLifecycle(_ lifecycle: PublicationLifecycle) {
        values.append(RecordFieldNames.publicationState, .string(lifecycle.state.rawValue))
        values.append(RecordFieldNames.publicationVersion, .int64(lifecycle.version))
        if let publishedAt = lifecycle.publishedAt {
            values.append(RecordFieldNames.publishedAt, .date(publishedAt))
        } else {
            emptyKeys.insert(RecordFieldNames.publishedAt)
        }
    }
}

extension SyncRecord {
    /// The lifecycle as the server knows it, starting from `current` for fields the record lacks.
    package func decodePublicationLifecycle(updating current: PublicationLifecycle) throws(FieldDecodingError) -> PublicationLifecycle {
        var lifecycle = current
        if let state = try decode(RecordFieldNames.publicationState, as: String.self) {
            guard let parsed = PublicationState(rawValue: state) else {
                throw FieldDecodingError(recordType: recordType, recordName: id.recordName, field: RecordFieldNames.publicationState, expected: "listed or delisted", found: "'\(state)'")
            }
            lifecycle.state = parsed
        }
        lifecycle.version = try decode(RecordFieldNames.publicationVersion, as: Int64.self) ?? lifecycle.version
        lifecycle.publishedAt = try decode(RecordFieldNames.publishedAt, as: Date.self) ?? lifecycle.publishedAt
        lifecycle.reviewState = try decode(RecordFieldNames.reviewState, as: String.self)
        lifecycle.reviewNote = try decode(RecordFieldNames.reviewNote, as: String.self)
        lifecycle.reviewedVersion = try decode(RecordFieldNames.reviewedVersion, as: Int64.self)
        return lifecycle
    }
}

/// In the device's own store a lifecycle is kept whole, as JSON bytes.
extension PublicationLifecycle {
    package var storedValue: SyncFieldValue { .bytes((try? JSONEncoder().encode(self)) ?? Data()) }
}

extension SyncRecord {
    /// The lifecycle as the device's own copy keeps it.
    package func decodeStoredLifecycle() throws(FieldDecodingError) -> PublicationLifecycle? {
        let field = RecordFieldNames.storedLifecycle
        guard let value = self[field: field] else { return nil }
        guard case .bytes(let data) = value, let lifecycle = try? JSONDecoder().decode(PublicationLifecycle.self, from: data) else {
            throw mismatch(field, expected: "publication lifecycle", found: value)
        }
        return lifecycle
    }
}
