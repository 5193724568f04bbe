/// How the account a store belongs to changed, naming the users (their user record names).
public enum AccountChange: Sendable, Hashable {
    /// The first account signed in on a store that held none.
    case signedIn(String)
    /// The account signed out: nobody is signed in now.
    case signedOut(String)
    /// Another account signed in in place of this one.
    case switched(from: String, to: String)

    /// The change from `old` to `new`, or nil when they are the same.
    package init?(from old: String?, to new: String?) {
        switch (old, new) {
        case (nil, let new?): self = .signedIn(new)
        case (let old?, nil): self = .signedOut(old)
        case (let old?, let new?) where old != new: self = .switched(from: old, to: new)
        default: return nil
        }
    }

    /// The user signed in after the change; nil after a sign-out.
    public var user: String? {
        switch self {
        case .signedIn(let user), .switched(_, let user): user
        case .signedOut: nil
        }
    }
}
