import Foundation

/// Timing for benchmarks, in the CPU time of this process (every thread of it): what the work
/// costs the device, unmoved by what else the shared machine runs or by waits on the disk. Figures
/// compared with each other are measured interleaved: run one of each, then the next round, so
/// whatever else the machine does falls on all of them alike; each is the median of its rounds,
/// printed with its spread. A latency (how long until an observer hears of a save) is the one
/// figure in wall time: `wallNow`.
enum Measurement {
    /// The runs of one measured body.
    struct Timing {
        var samples: [Double]

        var median: Double { Measurement.median(samples) }
        var low: Double { samples.min() ?? 0 }
        var high: Double { samples.max() ?? 0 }

        /// "12.34 ms (11.90-13.10)": the median and the range of the runs.
        var description: String {
            String(format: "%9.2f ms (%.2f-%.2f)", median * 1000, low * 1000, high * 1000)
        }
    }

    /// The middle of several measurements.
    static func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    /// The CPU time this process has used so far, in seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The CPU seconds used since `start` (a value of `now()`).
    static func since(_ start: Double) -> Double { now() - start }

    /// The wall-clock time, in seconds, for latencies only.
    static func wallNow() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    /// How much CPU time `body` takes, once.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return since(start)
    }

    /// `seconds` for a body that awaits.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = now()
        try await body()
        return since(start)
    }

    /// Each body `runs` times, interleaved (one run of each per round): their timings, in order.
    /// A body that throws is a broken benchmark, and stops it. `warmUp`: one round first, not
    /// timed, so no body's first run meets a heap the others have not grown yet.
    static func interleaved(runs: Int = 5, warmUp: Bool = false, _ bodies: [() throws -> Void]) -> [Timing] {
        var timings = Array(repeating: Timing(samples: []), count: bodies.count)
        if warmUp {
            for body in bodies { _ = try? body() }
        }
        for _ in 0..<runs {
            for (index, body) in bodies.enumerated() {
                do {
                    timings[index].samples.append(try seconds(body))
                } catch {
                    fatalError("benchmark body \(index) failed: \(error)")
                }
            }
        }
        return timings
    }

    /// `interleaved` for bodies that await (engine passes, cloud requests).
    static func interleaved(runs: Int = 5, _ bodies: [() async throws -> Void]) async -> [Timing] {
        var timings = Array(repeating: Timing(samples: []), count: bodies.count)
        for _ in 0..<runs {
            for (index, body) in bodies.enumerated() {
                do {
                    timings[index].samples.append(try await seconds(body))
                } catch {
                    fatalError("benchmark body \(index) failed: \(error)")
                }
            }
        }
        return timings
    }

    /// Prints the growth from the first timing to the second (10x the input) and whether it is
    /// within `allowed`; returns that. The growth is the smaller of two ratios: the fastest
    /// runs' (noise mostly adds time, so the least disturbed run of each is compared: the medians
    /// moved between 9.9x and 12.8x across two CI runs of the same code) and the medians' (a
    /// small input sometimes runs half again as fast as its other runs: one such 1,000-model
    /// validation made the fastest runs' ratio 13.6x in a CI run whose medians grew 8.9x). A path
    /// that costs the square of its input grows about 100x by both.
    static func checkGrowth(_ timings: [Timing], of input: String, allowed: Double) -> Bool {
        let fastest = timings[1].low / timings[0].low
        let medians = timings[1].median / timings[0].median
        let growth = min(fastest, medians)
        let met = growth <= allowed
        print(String(format: "  target: 10x %@ at most %.0fx the time (%.1fx: fastest runs %.1fx, medians %.1fx): %@", input, allowed, growth, fastest, medians, verdict(met)))
        return met
    }

    /// The medians of a typed read's runs and of the C API's running the same SQL, a line each
    /// (the C API's first, then the typed read's with its ratio), and the target's line: whether
    /// the typed read is within `within` times the C API. What the issue-58 groups print.
    static func besideTheCAPI(_ label: String, _ typed: [Double], cAPI cLabel: String, _ direct: [Double], within: Double) -> Bool {
        let (typed, direct) = (median(typed), median(direct))
        func column(_ text: String) -> String { text.padding(toLength: max(28, text.count + 1), withPad: " ", startingAt: 0) }
        print("  \(column(cLabel))\(milliseconds(direct))")
        print("  \(column(label))\(milliseconds(typed))   \(String(format: "%.2f", typed / direct))x the C API")
        let met = typed / direct <= within
        print("  target: within \(within)x the C API: \(verdict(met))")
        return met
    }

    /// "met" or "MISSED", for a target line.
    static func verdict(_ met: Bool) -> String { met ? "met" : "MISSED" }

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
