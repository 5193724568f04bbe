import Foundation
import Testing
import SyncGenerator

/// The passing side of every rule: schemas right at the edge of a rule that must validate clean.
struct PassingCase: CustomTestStringConvertible, Sendable {
    var rule: String
    var yaml: String

    init(_ rule: String, _ yaml: String) {
        self.rule = rule
        self.yaml = yaml
    }

    var testDescription: String { rule }
}

let passingCases: [PassingCase] = [
    PassingCase("1: version 1, comments, an explicit document start", "# Notes\n---\nversion: 1\nmodels:\n  A:\n    fields: {}\n"),
    PassingCase("1: anchors under x- keys, aliases in fields", "x-text: &text { type: string, optional: true }\nmodels:\n  A:\n    fields:\n      title: *text\n      subtitle: *text\n"),
    PassingCase("1: empty models and empty fields", "models:\n  A:\n    fields:\n"),
    PassingCase("6: several asset fields in one model, beside fields named like another's keys", """
        models:
          Album:
            fields:
              cover: asset
              thumbnail: asset
              coverAssetSize: int
              thumbnailCount: int
        """),
    PassingCase("3-6: fields renamed in Swift, stored under their deployed keys (two swapped, an asset, a key field, a desired key)", """
        models:
          Recipe:
            unique: [[title]]
            fields:
              title: { type: string, recordKey: name }
              name: { type: string, recordKey: title }
              cover: asset
              diagram: { type: asset, recordKey: sketch }
              title2: { type: int, recordKey: diagramAssetSize }
          PublicRecipe:
            scopes: [public]
            catalog: { desiredKeys: [dish] }
            fields:
              dish: { type: string, recordKey: name }
        """),
    PassingCase("17: data within CloudKit's limit: bounded, local-only, or a file in an asset", """
        models:
          Recipe:
            fields:
              checksum: { type: data, maxBytes: 32 }
              thumbnails: { type: list, of: data, maxBytes: 4096, merge: union }
              draft: { type: data, localOnly: true }
              photo: asset
              a: { type: data, maxBytes: 500000 }
              b: { type: data, maxBytes: 500000 }
        """),
    PassingCase("6: enums, alone and in lists, with defaults, keyword cases, in a unique key, sorted, merged as a set", """
        models:
          Task:
            unique: [[title, status]]
            fields:
              title: string
              status: { type: enum, cases: [todo, doing, done], default: todo, index: [queryable, sortable] }
              type: { type: enum, cases: [default, open, in], optional: true }
              tags: { type: list, of: enum, cases: [red, green], default: [green], merge: union }
        """),
    PassingCase("6: urls and uuids, alone and in lists, sorted, queried and in a unique key", """
        models:
          Bookmark:
            unique: [[source, externalID]]
            fields:
              source: { type: url, index: [queryable, sortable] }
              externalID: { type: uuid, index: [queryable, sortable] }
              mirror: { type: url, optional: true }
              seen: { type: list, of: uuid, merge: union }
              links: { type: list, of: url, optional: true, merge: lastWriterWins }
        """),
    PassingCase("1: quoted keys and values", "\"models\":\n  'A':\n    \"fields\":\n      \"title\": 'string'\n"),
    PassingCase("2: every model, field and catalog key", """
        models:
          Root:
            recordType: RootRecord
            scopes: [private, shared]
            shareable: true
            fields:
              name: { type: string, optional: false, default: "x", encrypted: true }
          Child:
            scopes: [private, shared]
            parent: Root
            fields:
              root: { type: reference, to: Root, onDelete: deleteSelf }
              tags: { type: list, of: string, index: [searchable, queryable], merge: union }
              note: { type: string, localOnly: true }
              views: { type: int, serverOwned: true }
          Draft:
            publishAs: Pub
            fields:
              title: string
          Pub:
            scopes: [public]
            catalog: { desiredKeys: [title], initialState: delisted, governed: true }
            fields:
              title: string
        """),
    PassingCase("3: keyword field names, capitalised model, 255-character name", "models:\n  Task:\n    fields:\n      default: string\n      class: int\n      in: bool\n      " + String(repeating: "a", count: 255) + ": string\n"),
    PassingCase("3: a model name that is no CloudKit name, with a recordType that is", "models:\n  _Internal:\n    recordType: Internal\n    fields: {}\n"),
    PassingCase("3: names generated code uses, as models and fields where they cannot meet it", """
        models:
          Models:
            fields:
              models: string
              Models: { type: reference, to: Models, optional: true }
              newValue: asset
              hash: int
              inout: { type: reference, to: Models }
              any: string
              each: string
              Identifier: string
          SyncgenRuntimeVersionCheck:
            fields: {}
          Item:
            parent: Models
            fields:
              Item: string
              Models: string
        """),
    PassingCase("4: names close to reserved ones", "models:\n  A:\n    fields:\n      recordNames: string\n      owner: string\n      asset: string\n      Parent: string\n"),
    PassingCase("5: one field name in two models, record type equal to own name", "models:\n  A:\n    recordType: A\n    fields:\n      title: string\n  B:\n    fields:\n      title: string\n"),
    PassingCase("6: every type and list element, defaults of each literal type", """
        models:
          A:
            fields:
              s: { type: string, default: "text" }
              i: { type: int, default: -42 }
              big: { type: int, default: 9223372036854775807 }
              d: { type: double, default: 2.5 }
              whole: { type: double, default: 3 }
              b: { type: bool, default: true }
              now: { type: date, default: now }
              day: { type: date, default: 2024-05-01 }
              moment: { type: date, default: "2024-05-01T12:00:00.250+02:00" }
              bytes: { type: data, maxBytes: 256 }
              file: asset
              where: location
              maybe: { type: string, optional: true, default: null }
              names: { type: list, of: string, default: [a, "b"], merge: union }
              numbers: { type: list, of: int, default: [], merge: union }
              flags: { type: list, of: bool, merge: lastWriterWins }
              doubles: { type: list, of: double, merge: union }
              dates: { type: list, of: date, merge: union }
              blobs: { type: list, of: data, merge: union, maxBytes: 256 }
              places: { type: list, of: location, merge: union }
              links: { type: list, of: reference, to: A, merge: union }
              myself: { type: reference, to: A }
        """),
    PassingCase("6: references between models of the same scopes", "models:\n  P:\n    scopes: [public]\n    fields:\n      other: { type: reference, to: Q }\n  Q:\n    scopes: [public]\n    fields: {}\n"),
    PassingCase("7: each allowed scope set, in either order", "models:\n  A:\n    scopes: [private]\n    fields: {}\n  B:\n    scopes: [shared, private]\n    fields: {}\n  C:\n    scopes: [public]\n    fields: {}\n"),
    PassingCase("8: a three-level share hierarchy", "models:\n  L:\n    scopes: [private, shared]\n    shareable: true\n    fields: {}\n  I:\n    scopes: [private, shared]\n    parent: L\n    fields: {}\n  S:\n    scopes: [private, shared]\n    parent: I\n    fields: {}\n"),
    PassingCase("8: a private parent chain without sharing", "models:\n  A:\n    fields: {}\n  B:\n    parent: A\n    fields: {}\n"),
    PassingCase("9: projection fields match, server-owned and local-only projection fields are its own", """
        models:
          Author:
            publishAs: PublicAuthor
            fields:
              name: string
          PublicAuthor:
            scopes: [public]
            fields:
              name: string
          Note:
            publishAs: PublishedNote
            fields:
              title: string
              body: { type: string, optional: true }
              secret: string
              author: { type: reference, to: Author }
              cover: asset
          PublishedNote:
            scopes: [public]
            fields:
              title: string
              body: { type: string, optional: true }
              author: { type: reference, to: PublicAuthor }
              cover: asset
              views: { type: int, serverOwned: true }
              readLater: { type: bool, localOnly: true }
        """),
    PassingCase("10: public models with and without catalog, auto desired keys", "models:\n  P:\n    scopes: [public]\n    catalog: { desiredKeys: auto }\n    fields:\n      cover: asset\n  Q:\n    scopes: [public]\n    fields: {}\n"),
    PassingCase("11: encryption on every type that allows it", "models:\n  A:\n    fields:\n      s: { type: string, encrypted: true }\n      d: { type: data, encrypted: true, maxBytes: 32 }\n      l: { type: list, of: string, encrypted: true, merge: union }\n      p: { type: location, encrypted: true }\n"),
    PassingCase("12: localOnly and serverOwned each alone, encrypted=false beside them", "models:\n  A:\n    fields:\n      a: { type: string, localOnly: true, encrypted: false }\n      b: { type: string, serverOwned: true }\n      c: { type: string, localOnly: false, serverOwned: true }\n"),
    PassingCase("13: each index where it is allowed", "models:\n  A:\n    fields:\n      s: { type: string, index: [queryable, sortable, searchable] }\n      l: { type: list, of: string, index: [searchable, queryable], merge: union }\n      d: { type: date, index: [sortable] }\n      r: { type: reference, to: A, index: [queryable] }\n"),
    PassingCase("16: natural keys of every comparable type, one and several keys; merge policies where they apply", """
        models:
          List:
            scopes: [private, shared]
            shareable: true
            unique: [title]
            merge: serverWins
            fields:
              title: string
              tags: { type: list, of: string, merge: union }
              owners: { type: list, of: reference, to: List, merge: union }
          Item:
            scopes: [private, shared]
            parent: List
            unique: [[list, name], [code], [day, done]]
            fields:
              list: { type: reference, to: List }
              name: { type: string, optional: true }
              code: int
              day: date
              done: bool
              count: { type: int, merge: max }
              low: { type: double, merge: min }
              seen: { type: date, merge: max }
              note: { type: string, merge: custom }
              cover: { type: asset, merge: clientWins }
              kept: { type: string, merge: lastWriterWins }
        """),
    PassingCase("14: public models without sharing", "models:\n  P:\n    scopes: [public]\n    shareable: false\n    fields: {}\n"),
]

@Suite("Valid schemas validate clean")
struct ValidSchemaTests {
    @Test(arguments: passingCases)
    func validatesClean(_ passing: PassingCase) {
        let result = validate(passing.yaml)
        #expect(result.diagnostics.isEmpty, "\(result.rendered)")
        #expect(result.schema != nil)
    }

    @Test func exampleSchemasValidateClean() throws {
        let result = SchemaPipeline().validate(try schemaSources("Examples/Notes/Sources/NotesDemo/Schema"))
        #expect(result.diagnostics.isEmpty, "\(result.rendered)")
        #expect(result.schema?.models.count == 6)
    }

    /// The contract's example, as it is: valid, with one note (its `tags` list says no `merge`).
    @Test func specificationExampleValidatesClean() throws {
        let result = SchemaPipeline().validate(try fixtureSources("SpecExample"))
        #expect(result.diagnostics.map(Finding.init) == [Finding(.listWithoutMerge, .note, line: 20, column: 7)], "\(result.rendered)")
        let schema = try #require(result.schema)
        #expect(schema.models.map(\.name) == ["Category", "SharedList", "ListItem", "Note", "PublishedNote"])
    }
}
