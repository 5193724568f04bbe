import Foundation

/// The protocol's framing over a byte stream: each message is a header block (`Content-Length: N`,
/// other headers ignored, `\r\n` after each, a blank line at the end) and then N bytes of JSON.
struct MessageFramer {
    /// A header block no client writes: refused rather than buffered without end.
    static let maxHeaderBytes = 8 * 1024
    /// A message larger than any schema workspace sends.
    static let maxBodyBytes = 256 * 1024 * 1024

    enum Problem: Error, Equatable {
        /// The header block has no usable `Content-Length`; the stream cannot be followed past it.
        case badHeader(String)
    }

    private var buffer: [UInt8] = []
    private var start = 0

    /// Bytes received but not yet part of a whole message (a message cut off mid-way).
    var pendingByteCount: Int { buffer.count - start }

    mutating func append(_ bytes: Data) {
        if start == buffer.count || start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message's body, nil when more bytes are needed. A header block that cannot
    /// be followed is thrown, and skipped: the next call reads what comes after it.
    mutating func next() throws(Problem) -> [UInt8]? {
        guard let headerEnd = headerEnd() else {
            if pendingByteCount > Self.maxHeaderBytes {
                start = buffer.count
                throw .badHeader("no end of the header block in \(Self.maxHeaderBytes) bytes")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<headerEnd], as: UTF8.self)
        let bodyStart = headerEnd + 4
        var length: Int?
        for line in header.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else {
                start = bodyStart
                throw .badHeader("a header line without ':': '\(line)'")
            }
            if parts[0].lowercased() == "content-length" {
                let text = parts[1].trimmingCharacters(in: .whitespaces)
                guard let value = Int(text), value >= 0, value <= Self.maxBodyBytes else {
                    start = bodyStart
                    throw .badHeader("Content-Length '\(text)' is not a length")
                }
                length = value
            }
        }
        guard let length else {
            start = bodyStart
            throw .badHeader("no Content-Length")
        }
        guard buffer.count - bodyStart >= length else { return nil }
        start = bodyStart + length
        return Array(buffer[bodyStart..<start])
    }

    /// Where `\r\n\r\n` begins, after `start`.
    private func headerEnd() -> Int? {
        var index = start
        while index + 3 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10, buffer[index + 2] == 13, buffer[index + 3] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// One message, framed.
    static func frame(_ message: JSON) -> Data {
        let body = Data(message.text.utf8)
        return Data("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}
