import Foundation

/// Wall-clock timing for benchmarks: the best of several runs, which is the least disturbed by
/// whatever else the machine is doing.
enum Measurement {
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

    /// Peak resident memory of this process so far, in MiB (Linux: VmHWM; elsewhere 0).
    static func peakMemoryMiB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
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
