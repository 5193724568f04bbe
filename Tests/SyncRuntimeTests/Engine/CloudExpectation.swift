import Foundation
import SyncLocalCloud
import Testing

extension SyncWorld {
    /// The cloud, whole, as its stable text (`LocalCloud.snapshot().text`), against the text
    /// recorded for `name` (Tests/SyncRuntimeTests/Goldens/Cloud/<name>.txt): one expectation
    /// says "after this, the cloud holds this", where reading the cloud field by field would miss
    /// what nobody thought to read. Under SYNCGEN_UPDATE_GOLDENS=1 the recorded text is written
    /// first; review its diff as any golden file's.
    func expectCloud(is name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = try cloud.snapshot().text + "\n"
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Goldens/Cloud/\(name).txt")
        if ProcessInfo.processInfo.environment["SYNCGEN_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let recorded = try? String(contentsOf: url, encoding: .utf8)
        #expect(
            recorded == text,
            "the cloud is not \(name).txt (SYNCGEN_UPDATE_GOLDENS=1 records it; review the diff); it holds:\n\(text)",
            sourceLocation: sourceLocation)
    }
}
