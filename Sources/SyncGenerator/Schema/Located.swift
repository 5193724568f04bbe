/// A value read from a schema file together with where it was written, so that every later stage
/// can point a diagnostic at it.
package struct Located<Value: Sendable>: Sendable {
    package var value: Value
    package var location: SourceLocation

    package init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }
}

extension Located: Equatable where Value: Equatable {}
extension Located: Hashable where Value: Hashable {}
