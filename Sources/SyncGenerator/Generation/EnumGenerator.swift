import SyncCore
/// Prints the Swift enum of one `enum` field, a member type of its model: a case per name the
/// schema lists, `unknown` for any other name (a newer app version's case, kept and written back
/// as it came), and the name each stands for (`rawValue`), which is what CloudKit and the store
/// hold.
struct EnumGenerator {
    let field: Field
    let enumeration: FieldEnumeration
    /// `public ` or nothing, as the model's.
    let access: String

    func print(into printer: inout SwiftPrinter) {
        printer.documentation("The cases of `\(field.name)`; a name another version of the app added is kept as `unknown`.")
        printer.block("\(access)enum \(enumeration.typeName): SyncCore.SyncEnum, Swift.CaseIterable") { body in
            for name in enumeration.cases {
                if let documentation = enumeration.documentation[name] { body.documentation(documentation) }
                body.line("case \(SwiftSpelling.identifier(name))")
            }
            body.documentation("A name this version of the app does not know: kept, and written back as it came.")
            body.line("case unknown(Swift.String)")
            body.line()
            body.documentation("The cases this version of the app knows.")
            body.line("\(access)static let allCases: [Self] = [\(enumeration.cases.map(SwiftSpelling.enumCase).joined(separator: ", "))]")
            body.line()
            body.documentation("The case `rawValue` names, or `unknown` holding it.")
            body.block("\(access)init(rawValue: Swift.String)") { initializer in
                initializer.line("switch rawValue {")
                for name in enumeration.cases {
                    initializer.line("case \(QuotedText.swift(name)): self = \(SwiftSpelling.enumCase(name))")
                }
                initializer.line("default: self = .unknown(rawValue)")
                initializer.line("}")
            }
            body.line()
            body.documentation("The name CloudKit and the store hold.")
            body.block("\(access)var rawValue: Swift.String") { property in
                property.line("switch self {")
                for name in enumeration.cases {
                    property.line("case \(SwiftSpelling.enumCase(name)): \(QuotedText.swift(name))")
                }
                property.line("case .unknown(let name): name")
                property.line("}")
            }
        }
    }
}
