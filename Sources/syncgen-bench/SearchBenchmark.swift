import Foundation
import SyncRuntime

/// The store's text search beside the SQLite C API running FTS5 itself, in CPU time, the median
/// of interleaved runs:
///
/// - a search: the 20 best of 100,000 articles (bodies of about 200 words) for two words, as
///   `store.fetch(Query.matching)` (its index, its join, the models made), beside C asking a
///   contentless FTS5 table of the same words (SQLite's own `unicode61` tokenizer) for the same
///   20 best and reading their rows;
/// - keeping the index: articles saved in transactions of 1,000 (the row, its history entry,
///   and the words the store's trigger and tokenizer put in the index), beside C inserting the
///   row, the history entry and the FTS row.
///
/// The floor's tokenizer is SQLite's, in C: the store's splits by CloudKit's rule, in Swift,
/// and what that costs is part of what is measured.
enum SearchBenchmark {
    static let articleCount = 100_000
    static let savedCount = 10_000
    static let batch = 1_000
    static let runs = 5
    /// Searches per figure: one alone is too short for a clock to weigh.
    static let repeats = 20
    static let searchWithin = 1.5
    static let saveWithin = 1.3

    /// A body of about 200 words from a vocabulary of 20,000, some far more frequent than
    /// others (as a language's are), the same for a given number.
    static func article(_ number: Int) -> BenchArticle {
        var state = UInt64(number) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        func next() -> UInt64 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return state
        }
        let words = (0..<200).map { _ -> String in
            // The square of a uniform draw: small ranks (frequent words) far more often.
            let uniform = Double(next() % 1_000_000) / 1_000_000
            return "w\(Int(uniform * uniform * 20_000))"
        }
        return BenchArticle(recordName: "article-\(number)", title: "Article \(number) " + words[0], body: words.joined(separator: " "))
    }

    static func run() -> Bool {
        print("search: \(articleCount) articles of about 200 words, beside the C API's FTS5 (median of \(runs) interleaved runs, CPU time)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("search-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let storeURL = folder.appendingPathComponent("store.sqlite")
            let store = try SyncStore(url: storeURL)
            let floor = SQLiteFloor(folder.appendingPathComponent("floor.sqlite"))
            floor.execute("""
                CREATE TABLE article (_name TEXT PRIMARY KEY, _owner TEXT NOT NULL, title TEXT, body TEXT);
                CREATE VIRTUAL TABLE article_search USING fts5(title, body, content = '', tokenize = 'unicode61 remove_diacritics 2');
                """)
            let insertArticle = floor.prepare("INSERT INTO article (_name, _owner, title, body) VALUES (?, '', ?, ?)")
            let insertWords = floor.prepare("INSERT INTO article_search (rowid, title, body) VALUES (last_insert_rowid(), ?, ?)")
            for first in stride(from: 0, to: articleCount, by: batch) {
                let articles = (first..<first + batch).map(article)
                try store.save(articles)
                floor.transaction {
                    for article in articles {
                        insertArticle.bind(1, article.recordName)
                        insertArticle.bind(2, article.title)
                        insertArticle.bind(3, article.body)
                        insertArticle.run()
                        insertWords.bind(1, article.title)
                        insertWords.bind(2, article.body)
                        insertWords.run()
                    }
                }
            }
            let met = try searches(store, floor) && saves(folder)
            return met
        } catch {
            print("  failed: \(error)")
            return false
        }
    }

    /// The 20 best articles for two words of middling frequency.
    private static func searches(_ store: SyncStore, _ floor: SQLiteFloor) throws -> Bool {
        let query = Query<BenchArticle>().matching("w150 w900 ").limit(20)
        let select = floor.prepare("""
            SELECT _name, _owner, title, body FROM article JOIN (SELECT rowid AS _found, rank AS _rank FROM article_search WHERE article_search MATCH ?)
            ON _found = article.rowid ORDER BY _rank, _name LIMIT 20
            """)
        var typed: [Double] = [], direct: [Double] = []
        for _ in 0..<runs {
            typed.append(try Measurement.seconds {
                for _ in 0..<repeats {
                    let found = try store.fetch(query)
                    precondition(found.count == 20)
                }
            } / Double(repeats))
            direct.append(Measurement.seconds {
                for _ in 0..<repeats {
                    var count = 0
                    select.bind(1, "w150 w900")
                    while select.step() {
                        _ = (select.text(0), select.text(1), select.text(2), select.text(3))
                        count += 1
                    }
                    precondition(count == 20)
                }
            } / Double(repeats))
        }
        return Measurement.besideTheCAPI("store.fetch(matching)", typed, cAPI: "C API's FTS5, 20 best", direct, within: searchWithin)
    }

    /// Saves of new articles, the index kept, beside C's three inserts per article.
    private static func saves(_ folder: URL) throws -> Bool {
        let articles = (0..<savedCount).map { article(articleCount + $0) }
        var stored: [Double] = [], direct: [Double] = []
        for run in 0..<3 {
            let store = try SyncStore(url: folder.appendingPathComponent("saves-\(run).sqlite"))
            try store.save(BenchArticle(recordName: "first"))  // the table and index are made once, not timed
            stored.append(try Measurement.seconds {
                for first in stride(from: 0, to: articles.count, by: batch) { try store.save(Array(articles[first..<first + batch])) }
            })
            let floor = SQLiteFloor(folder.appendingPathComponent("saves-floor-\(run).sqlite"))
            floor.copyTables(["model_BenchArticle", "history"], from: folder.appendingPathComponent("saves-\(run).sqlite"))
            // The floor keeps its words itself, in C: not by the store's triggers, which it copied.
            floor.execute("""
                DROP TRIGGER "model_BenchArticle.search.insert"; DROP TRIGGER "model_BenchArticle.search.update"; DROP TRIGGER "model_BenchArticle.search.delete";
                CREATE VIRTUAL TABLE article_search USING fts5(title, body, content = '', tokenize = 'unicode61 remove_diacritics 2');
                """)
            let insertRow = floor.prepare("INSERT INTO model_BenchArticle (_name, _owner, _parent, _modified, _extra, title, body) VALUES (?, '', NULL, ?, NULL, ?, ?)")
            let insertHistory = floor.prepare("INSERT INTO history (type, name, kind, author, tombstone, at) VALUES (?, ?, 0, 'app', NULL, ?)")
            let insertWords = floor.prepare("INSERT INTO article_search (rowid, title, body) VALUES (last_insert_rowid(), ?, ?)")
            direct.append(Measurement.seconds {
                for first in stride(from: 0, to: articles.count, by: batch) {
                    floor.transaction {
                        for index in first..<first + batch {
                            let article = articles[index]
                            insertRow.bind(1, article.recordName)
                            insertRow.bind(2, Double(index))
                            insertRow.bind(3, article.title)
                            insertRow.bind(4, article.body)
                            insertRow.run()
                            insertWords.bind(1, article.title)
                            insertWords.bind(2, article.body)
                            insertWords.run()
                            insertHistory.bind(1, BenchArticle.recordType)
                            insertHistory.bind(2, article.recordName)
                            insertHistory.bind(3, Double(index))
                            insertHistory.run()
                        }
                    }
                }
            })
        }
        let (saved, sqlite) = (Measurement.median(stored), Measurement.median(direct))
        print(String(format: "  C API: row, history, FTS   %8.0f articles/s", Double(savedCount) / sqlite))
        print(String(format: "  store.save, index kept     %8.0f articles/s   %.2fx the C API", Double(savedCount) / saved, saved / sqlite))
        let met = saved / sqlite <= saveWithin
        print("  target: within \(saveWithin)x the C API: \(Measurement.verdict(met))")
        return met
    }
}
