import Foundation
import Testing
import SyncGenerator
import SyncRuntime

@Suite("Docs stay true to the code")
struct DocumentationTests {
    private func reference() throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent("docs/SchemaReference.md"), encoding: .utf8)
    }

    @Test func everyDiagnosticCodeIsInTheReferenceTable() throws {
        let rows = Set(try reference().split(separator: "\n").filter { $0.hasPrefix("| `SG") }.map(String.init))
        for code in DiagnosticCode.allCases {
            let row = "| `\(code.rawValue)` | \(code.severity.rawValue) | \(code.summary) |"
            #expect(rows.contains(row), "docs/SchemaReference.md lacks: \(row)")
        }
        #expect(rows.count == DiagnosticCode.allCases.count, "the table lists codes that do not exist")
    }

    @Test func everyKeyAndTypeIsDocumented() throws {
        let text = try reference()
        let words = SchemaVocabulary.fileKeys + SchemaVocabulary.modelKeys + SchemaVocabulary.fieldKeys
            + SchemaVocabulary.catalogKeys + FieldKind.allCases.map(\.rawValue) + IndexKind.allCases.map(\.rawValue)
            + DeleteActionName.allCases.map(\.rawValue) + PublicationStateName.allCases.map(\.rawValue)
        for word in words {
            #expect(text.contains("`\(word)`"), "docs/SchemaReference.md does not mention `\(word)`")
        }
    }

    @Test func everyReservedNameIsDocumented() throws {
        let text = try reference()
        let generatorNames = ReservedNames.swiftTypeNames + ReservedNames.moduleNames + ReservedNames.modelMemberTypes
            + [ReservedNames.schemaListMember, SwiftNaming.schemaTypeName] + SwiftNaming.typePositionKeywords.sorted()
        for name in RecordFieldNames.cloudKitSystemFields + RecordFieldNames.runtimeFields + RecordFieldNames.modelMembers + RecordFieldNames.reservedRecordTypes + generatorNames {
            #expect(text.contains("`\(name)`"), "docs/SchemaReference.md does not list reserved name `\(name)`")
        }
    }
}
