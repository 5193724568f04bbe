/// Rule 14: public records have no share hierarchy.
extension ValidationContext {
    mutating func checkPublicModels() {
        for id in allModelIDs where scopes[id] == .publicOnly {
            let model = model(id)
            if let shareable = model.shareable, shareable.value {
                report(Diagnostic(.publicShareable, "public model '\(model.name.value)' cannot be shareable; shares live in private zones", at: shareable.location))
            }
            if let parent = model.parent {
                report(Diagnostic(.publicWithParent, "public model '\(model.name.value)' cannot have a parent; the public database has no share hierarchy", at: parent.location))
            }
        }
    }
}
