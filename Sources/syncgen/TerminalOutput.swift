import Foundation

enum OutputStream {
    case standardOutput, standardError
}

/// Where the commands write; the real terminal in `main`, a buffer in tests.
protocol TerminalOutput {
    mutating func write(_ text: String, to stream: OutputStream)
}

struct StandardStreams: TerminalOutput {
    mutating func write(_ text: String, to stream: OutputStream) {
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        handle.write(Data(text.utf8))
    }
}

/// "1 file", "3 files": how summaries count things.
func counted(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}
