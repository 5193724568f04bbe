/// Builds Swift source line by line with indentation: generated code is printed, not assembled
/// from a syntax library.
struct SwiftPrinter {
    private(set) var text = ""
    private var indentation = 0

    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: "    ", count: indentation) + content + "\n"
        }
    }

    /// `opening {`, the body one level in, `}`.
    mutating func block(_ opening: String, _ body: (inout SwiftPrinter) -> Void) {
        line(opening + " {")
        indentation += 1
        body(&self)
        indentation -= 1
        line("}")
    }

    /// A `///` comment, one line per line of `text`.
    mutating func documentation(_ text: String) {
        for part in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line(part.isEmpty ? "///" : "/// " + part)
        }
    }
}
