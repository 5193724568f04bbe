import SyncCore
import SyncGenerator
import Testing

/// The name table, whole: every name generated code declares, qualifies with or uses as a local,
/// every Swift keyword, and the standard and runtime types, as a field name and as a model name.
/// Each is either refused by the validator, with an error at the name, or compiles in every
/// position generated code puts it (a field of each kind, in a share root, a child, a draft and
/// its projection; a model referenced, parented, published and listed), in internal and in public
/// access, with the types the schema says.
@Suite("Generated names: each is refused where it stands, or compiles")
struct GeneratedNameTests {
    static let names: [String] = {
        let all = HostileNames.generatedNames + HostileNames.keywords + HostileNames.standardTypes
            + HostileNames.runtimeTypes + HostileNames.reservedFields + Array(SwiftNaming.keywords)
            + Array(SwiftNaming.typePositionKeywords) + ReservedNames.moduleNames + ReservedNames.swiftTypeNames
            + ReservedNames.modelMemberTypes + RecordFieldNames.modelMembers + [SwiftNaming.schemaTypeName, ReservedNames.schemaListMember]
        return Array(Set(all)).sorted()
    }()

    /// One-field schemas: the names the validator takes as a field's, each refusal at the name.
    static func acceptedFieldNames() -> [String] {
        names.filter { name in
            let result = validate("models:\n  Holder:\n    fields:\n      \(YAMLText.key(name)): string\n")
            let errors = result.diagnostics.filter { $0.severity == .error }
            #expect(errors.allSatisfy { $0.location.line == 4 && $0.location.column == 7 }, "\(name): \(result.rendered)")
            return errors.isEmpty
        }
    }

    static func acceptedModelNames() -> [String] {
        names.filter { name in
            let result = validate("models:\n  \(YAMLText.key(name)):\n    recordType: Holder\n    fields: {}\n")
            let errors = result.diagnostics.filter { $0.severity == .error }
            #expect(errors.allSatisfy { $0.location.line == 2 && $0.location.column == 3 }, "\(name): \(result.rendered)")
            return errors.isEmpty
        }
    }

    /// Every accepted field name in a share root that is a draft, in its child, and in its
    /// projection; as a string, an optional int, a list, a reference and (one of them) the asset.
    static func fieldSchema(_ fields: [String]) -> String {
        func kind(_ index: Int) -> String {
            ["string", "{ type: int, optional: true, default: 7 }", "{ type: list, of: double }", "{ type: reference, to: Holder }"][index % 4]
        }
        // `newValue` is the asset: its setter's parameter has that name too.
        let others = fields.filter { $0 != "newValue" }
        let rows = others.enumerated().map { "      \(YAMLText.key($1)): \(kind($0))" }
        let projected = others.enumerated().filter { $0.offset % 4 < 3 }.map { "      \(YAMLText.key($1)): \(kind($0))" }
        return """
            models:
              Holder:
                scopes: [private, shared]
                shareable: true
                publishAs: PublicHolder
                fields:
            \(rows.joined(separator: "\n"))
                  newValue: asset
              Child:
                scopes: [private, shared]
                parent: Holder
                fields:
            \(rows.joined(separator: "\n"))
              PublicHolder:
                scopes: [public]
                catalog: { governed: true }
                fields:
            \(projected.joined(separator: "\n"))
                  newValue: asset

            """
    }

    /// Every accepted model name, each referencing the next, every third a draft with a
    /// projection, every other upper-case one a child of the model before it.
    static func modelSchema(_ models: [String]) -> String {
        var lines = ["models:"]
        for (index, name) in models.enumerated() {
            let next = models[(index + 1) % models.count]
            lines.append("  \(YAMLText.key(name)):")
            lines.append("    recordType: R\(index)")
            if index % 2 == 1, name.first?.isUppercase == true { lines.append("    parent: \(YAMLText.key(models[index - 1]))") }
            if index % 3 == 0 { lines.append("    publishAs: Public\(index)") }
            lines.append("    fields:")
            lines.append("      next: { type: reference, to: \(YAMLText.key(next)), optional: true }")
            lines.append("      all: { type: list, of: reference, to: \(YAMLText.key(name)) }")
            lines.append("      title: string")
            if index % 3 == 0 {
                lines.append("  Public\(index):\n    scopes: [public]\n    fields:\n      title: string")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Breaking it: drop `Projection` from `ReservedNames.modelMemberTypes` and the draft's key
    /// path `\Self.Projection` reaches its typealias: the module does not compile.
    @Test func everyNameIsRefusedAtItsPlaceOrCompiles() async throws {  // trap: T21.7
        let fields = Self.acceptedFieldNames()
        let models = Self.acceptedModelNames()
        // The names that must stay refusable: a table that lost one would show here.
        #expect(!fields.contains("ID") && !fields.contains("Self") && !fields.contains("hashValue") && fields.contains("newValue"))
        #expect(!models.contains("Projection") && !models.contains("models") && !models.contains("each") && models.contains("Data"))
        let compiler = try GeneratedCodeCompiler()
        for (label, yaml) in [("FieldNames", Self.fieldSchema(fields)), ("ModelNames", Self.modelSchema(models))] {
            let result = validate(yaml)
            let schema = try #require(result.schema, "\(result.rendered)\n\(yaml)")
            for access in CodeGenerator.AccessLevel.allCases {
                let module = "\(label)\(access.rawValue.capitalized)"
                let generated = try CodeGenerator(accessLevel: access).generate(schema, files: [.init(path: "Schema.yaml", relativePath: "Schema.yaml")])
                var files = Dictionary(uniqueKeysWithValues: generated.map { ($0.name, $0.contents) })
                files["Expectations.swift"] = CompiledExpectations.support()
                files["SchemaExpectations.swift"] = CompiledExpectations.file(for: schema, module: module, schemaType: SwiftNaming.schemaTypeName, function: "expectations", access: access)
                let output = try await compiler.compile(module: module, files: files)
                #expect(output == nil, "\(module) does not compile:\n\(output ?? "")")
            }
        }
    }
}
