import Foundation
import SyncCore
import SyncStorage

extension LocalCloudServer {
    /// A live share of the zone, by name.
    func share(named name: String, in zone: StoredZone) throws -> ShareRecord? {
        let rows = try database.query(
            "SELECT root, title, participants, public_permission, change_tag FROM shares WHERE owner = ? AND zone = ? AND name = ? AND deleted = 0",
            [.text(zone.owner), .text(zone.name), .text(name)])
        guard let row = rows.first else { return nil }
        var share = ShareRecord(
            id: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone.name, ownerName: zone.owner)),
            rootRecordName: row.optionalText(0), title: row.text(1),
            participants: (try? JSONDecoder().decode([ShareParticipant].self, from: Data(row.text(2).utf8))) ?? [],
            publicPermission: SharePermission(rawValue: row.text(3)) ?? .none, changeTag: row.text(4))
        share.systemFields = LocalCloudSystemFields.archive(recordType: ShareRecord.recordType, id: share.id, changeTag: row.text(4))
        share.url = LocalCloudShareLink.url(ofShare: name, in: zone)
        return share
    }

    /// A share as `user` reads it: with the participant that is them. Apple,
    /// `CKShare.currentUserParticipant`: "The participant that represents the current user";
    /// `CKShare.participants`: "At a minimum, it includes the share's owner and the current user."
    func share(_ share: ShareRecord, readBy user: String?) throws -> ShareRecord {
        var read = share
        for index in read.participants.indices {
            let participant = read.participants[index]
            // Apple (CloudKit JS, `UserIdentity`): "If a user is discoverable, [it] contains a
            // nameComponents key ...; otherwise, to protect the user's privacy, ... only the
            // lookupInfo key." Apple does not say when a share's participant counts as found;
            // the stricter reading names only the owner and those who accepted.
            let named = participant.role == .owner || participant.acceptanceStatus == .accepted
            read.participants[index].nameComponents = try named ? participant.userRecordName.flatMap(name(ofUser:)) : nil
        }
        read.currentUserParticipant = read.participants.first { $0.userRecordName != nil && $0.userRecordName == user && $0.acceptanceStatus != .removed }
        return read
    }

    /// Lets an account be found by its name.
    func setName(ofAccount account: String, _ name: PersonNameComponents) throws {
        let json = String(decoding: try JSONEncoder().encode(name), as: UTF8.self)
        try database.query("INSERT OR REPLACE INTO account_names (account, components) VALUES (?, ?)", [.text(account), .text(json)])
    }

    /// The name of the user of that record name, when their account lets itself be found by it.
    private func name(ofUser user: String) throws -> PersonNameComponents? {
        for row in try database.query("SELECT account, components FROM account_names") where Self.userRecordName(forAccount: row.text(0)) == user {
            return try JSONDecoder().decode(PersonNameComponents.self, from: Data(row.text(1).utf8))
        }
        return nil
    }

    func writeShare(_ share: ShareRecord, in zone: StoredZone, seq: Int64) throws {
        let participants = String(decoding: try JSONEncoder().encode(share.participants), as: UTF8.self)
        try database.query(
            """
            INSERT INTO shares (owner, zone, name, root, title, participants, public_permission, change_tag, seq, deleted)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0)
            ON CONFLICT(owner, zone, name) DO UPDATE SET root = excluded.root, title = excluded.title,
                participants = excluded.participants, public_permission = excluded.public_permission,
                change_tag = excluded.change_tag, seq = excluded.seq, deleted = 0
            """,
            [.text(zone.owner), .text(zone.name), .text(share.id.recordName), share.rootRecordName.map(SQLiteValue.text) ?? .null,
             .text(share.title), .text(participants), .text(share.publicPermission.rawValue), .text(String(seq)), .integer(seq)])
    }

    /// Stops a share: every participant loses access.
    func deleteShare(_ name: String, in zone: StoredZone, seq: Int64) throws {
        try database.query("UPDATE shares SET deleted = 1, seq = ? WHERE owner = ? AND zone = ? AND name = ?", [.integer(seq), .text(zone.owner), .text(zone.name), .text(name)])
        try database.query("UPDATE memberships SET active = 0, seq = ? WHERE owner = ? AND zone = ? AND share = ? AND active = 1", [.integer(seq), .text(zone.owner), .text(zone.name), .text(name)])
    }

    func endMembership(user: String, share: String, in zone: StoredZone, seq: Int64) throws {
        try database.query("UPDATE memberships SET active = 0, seq = ? WHERE user = ? AND owner = ? AND zone = ? AND share = ? AND active = 1", [.integer(seq), .text(user), .text(zone.owner), .text(zone.name), .text(share)])
    }

    /// A participant accepts: they must be invited (or the share must be open to anyone with the
    /// link); the zone then appears in their shared database.
    func acceptShare(_ metadata: ShareMetadata, caller: Caller) throws -> StoredZone {
        let user = try signedIn(caller)
        let zone = StoredZone(owner: metadata.ownerName, name: metadata.shareID.zoneID.zoneName)
        guard user != zone.owner else { throw CloudError(.invalidArguments, "the owner does not accept their own share") }
        guard try zoneState(zone) == 0, var share = try share(named: metadata.shareID.recordName, in: zone) else {
            throw CloudError(.unknownItem, "the share no longer exists")
        }
        let permission: SharePermission
        // Invited by record name, or by an email address or phone number this account registered:
        // Apple, `CKContainer.shareParticipant(forEmailAddress:)`: "If the email address doesn't
        // correspond to a known iCloud account, then at share-accept-time, CloudKit offers the
        // accepting participant a vetting process ... to link the email address to an iCloud
        // account". LocalCloud's vetting is the account's registered contacts.
        if let index = try invitation(of: user, in: share) {
            permission = share.participants[index].permission
            share.participants[index].userRecordName = user
            share.participants[index].acceptanceStatus = .accepted
        } else if share.publicPermission != .none {
            permission = share.publicPermission
            // One who left and joins again is listed once.
            share.participants.removeAll { $0.userRecordName == user && $0.acceptanceStatus == .removed }
            share.participants.append(ShareParticipant(
                userRecordName: user, role: .publicUser, permission: permission, acceptanceStatus: .accepted, participantID: "participant-\(user)"))
        } else {
            throw CloudError(.permissionFailure, "this user is not invited to the share")
        }
        let seq = try store.nextSequence()
        share.changeTag = String(seq)
        share.systemFields = LocalCloudSystemFields.archive(recordType: ShareRecord.recordType, id: share.id, changeTag: String(seq))
        try writeShare(share, in: zone, seq: seq)
        try database.query(
            """
            INSERT INTO memberships (user, owner, zone, share, permission, active, seq) VALUES (?, ?, ?, ?, ?, 1, ?)
            ON CONFLICT(user, owner, zone, share) DO UPDATE SET permission = excluded.permission, active = 1, seq = excluded.seq
            """,
            [.text(user), .text(zone.owner), .text(zone.name), .text(metadata.shareID.recordName), .text(permission.rawValue), .integer(seq)])
        try touchZone(zone, seq: seq)
        return zone
    }

    /// Where `user` is among the share's participants: by record name, or by an email address or
    /// phone number this account registered (LocalCloud's vetting, above); nil when the share
    /// does not list them, or lists them as removed.
    private func invitation(of user: String, in share: ShareRecord) throws -> Int? {
        let contacts = try self.contacts(ofUser: user)
        return share.participants.firstIndex { participant in
            participant.acceptanceStatus != .removed
                && (participant.userRecordName == user || (participant.userRecordName == nil && participant.lookup.map { contacts.contains(Self.normalized($0)) } == true))
        }
    }

    /// Whether a participant with `access` sees the record named `name` (owners see everything).
    func isVisible(_ name: String, in zone: StoredZone, access: ZoneAccess) throws -> Bool {
        guard case .participant(let roots, let zoneWide) = access else { return true }
        if zoneWide != nil { return true }
        return roots[try shareRoot(of: name, in: zone)] != nil
    }

    func isVisible(_ share: ShareRecord, access: ZoneAccess) -> Bool {
        guard case .participant(let roots, let zoneWide) = access else { return true }
        if let root = share.rootRecordName { return roots[root] != nil }
        return zoneWide != nil
    }
}

// MARK: - Links and people

extension LocalCloudServer {
    /// What a signed-in user opening a share's link learns (Apple, `CKContainer.shareMetadata(for:)`):
    /// which share, whose zone, which root. Anyone signed in may look a link up; only the
    /// invited (or anyone, for a public link) may then accept.
    func shareMetadata(for url: URL, caller: Caller) throws -> ShareMetadata {
        let user = try signedIn(caller)
        guard let (zone, name) = LocalCloudShareLink.share(at: url) else {
            throw CloudError(.invalidArguments, "\(url) is not a share link of this cloud")
        }
        guard try zoneState(zone) == 0, let share = try share(named: name, in: zone) else {
            throw CloudError(.unknownItem, "the share of \(url) no longer exists")
        }
        // Apple, `CKShare.Metadata.participantRole` and `participantStatus`: the role and status
        // "for the user who retrieves the metadata".
        var role: ShareParticipant.Role?
        var status: ShareParticipant.AcceptanceStatus?
        if user == zone.owner {
            (role, status) = (.owner, .accepted)
        } else if let index = try invitation(of: user, in: share) {
            (role, status) = (share.participants[index].role, share.participants[index].acceptanceStatus)
        } else if share.publicPermission != .none {
            (role, status) = (.publicUser, .pending)
        }
        return ShareMetadata(
            shareID: RecordID(recordName: name, zoneID: ZoneID(zoneName: zone.name, ownerName: zone.owner)),
            ownerName: zone.owner, rootRecordName: share.rootRecordName, title: share.title, url: url,
            participantRole: role, participantStatus: status)
    }

    /// People to share with, as CloudKit finds them (Apple, `CKContainer.shareParticipant(forEmailAddress:)`,
    /// `(forPhoneNumber:)`, `(forUserRecordID:)`): a user record name must name an account; an
    /// email address or phone number no account registered finds a person without an iCloud
    /// account (CloudKit's `hasiCloudAccount` false), who accepts once an account registers the address.
    func participants(for lookups: [ParticipantLookup], caller: Caller) throws -> [ParticipantLookup: Result<ShareParticipant, CloudError>] {
        _ = try signedIn(caller)
        var found: [ParticipantLookup: Result<ShareParticipant, CloudError>] = [:]
        for lookup in lookups {
            let account: String?
            switch lookup {
            case .userRecordName(let name):
                account = try database.query("SELECT name FROM accounts").map { $0.text(0) }.first { Self.userRecordName(forAccount: $0) == name }
                if account == nil {
                    found[lookup] = .failure(CloudError(.unknownItem, "no user has the record name \(name)"))
                    continue
                }
            case .emailAddress(let address):
                account = try contact("email", Self.normalized(email: address))
            case .phoneNumber(let number):
                account = try contact("phone", Self.normalized(phone: number))
            }
            found[lookup] = .success(ShareParticipant(userRecordName: account.map(Self.userRecordName(forAccount:)), lookup: lookup, permission: .none))
        }
        return found
    }

    /// Registers how others find an account.
    func setContacts(ofAccount account: String, emailAddress: String?, phoneNumber: String?) throws {
        if let emailAddress {
            try database.query("INSERT OR REPLACE INTO contacts (kind, value, account) VALUES ('email', ?, ?)", [.text(Self.normalized(email: emailAddress)), .text(account)])
        }
        if let phoneNumber {
            try database.query("INSERT OR REPLACE INTO contacts (kind, value, account) VALUES ('phone', ?, ?)", [.text(Self.normalized(phone: phoneNumber)), .text(account)])
        }
    }

    /// The lookups that find a user: their record name, and the contacts their account registered.
    private func contacts(ofUser user: String) throws -> Set<ParticipantLookup> {
        var lookups: Set<ParticipantLookup> = [.userRecordName(user)]
        let accounts = try database.query("SELECT name FROM accounts").map { $0.text(0) }.filter { Self.userRecordName(forAccount: $0) == user }
        for account in accounts {
            for row in try database.query("SELECT kind, value FROM contacts WHERE account = ?", [.text(account)]) {
                lookups.insert(row.text(0) == "email" ? .emailAddress(row.text(1)) : .phoneNumber(row.text(1)))
            }
        }
        return lookups
    }

    private func contact(_ kind: String, _ value: String) throws -> String? {
        try database.query("SELECT account FROM contacts WHERE kind = ? AND value = ?", [.text(kind), .text(value)]).first?.text(0)
    }

    /// A lookup as contacts are kept.
    private static func normalized(_ lookup: ParticipantLookup) -> ParticipantLookup {
        switch lookup {
        case .emailAddress(let address): .emailAddress(normalized(email: address))
        case .phoneNumber(let number): .phoneNumber(normalized(phone: number))
        case .userRecordName: lookup
        }
    }

    /// Email addresses compare without case; phone numbers by their digits (and a leading +).
    private static func normalized(email: String) -> String { email.trimmingCharacters(in: .whitespaces).lowercased() }
    private static func normalized(phone: String) -> String { String(phone.filter { $0.isNumber || $0 == "+" }) }
}
