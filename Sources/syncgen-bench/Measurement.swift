import Foundation

/// Wall-clock timing for benchmarks: the best of several runs, which is the least disturbed by
/// whatever else the machine is doing.
enum Measurement {
    /// The middle of several measurements: what interleaved runs report.
    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// How long `body` takes, once.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    static func bestSeconds(runs: Int = 5, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = min(best, elapsed)
        }
        return best
    }

    /// Peak resident memory of this process since start (or the last reset), in MiB (Linux:
    /// VmHWM; elsewhere 0).
    static func peakMemoryMiB() -> Double { statusValue("VmHWM:") }

    /// Resident memory now, in MiB (Linux: VmRSS; elsewhere 0).
    static func currentMemoryMiB() -> Double { statusValue("VmRSS:") }

    /// Starts a new peak from the current resident memory (Linux: clear_refs 5).
    static func resetPeakMemory() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }

    private static func statusValue(_ key: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) })
        else { return 0 }
        let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
        return kilobytes / 1024
    }

    static func milliseconds(_ seconds: Double) -> String {
        String(format: "%9.2f ms", seconds * 1000)
    }

    /// `number` right-aligned in `width` columns.
    static func pad(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
