import Foundation

/// "Did you mean" suggestions: the closest known word to a misspelt one, if it is close enough to
/// be a plausible typo.
package enum Suggestion {
    /// The candidate closest to `word`, or nil when none is close. Case-only differences always
    /// count as close.
    package static func closest<S: Sequence>(to word: String, among candidates: S) -> String? where S.Element == String {
        let lowered = word.lowercased()
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance: Int
            if candidate.lowercased() == lowered {
                distance = 0
            } else {
                distance = editDistance(lowered, candidate.lowercased(), limit: threshold(for: word))
            }
            guard distance <= threshold(for: word) else { continue }
            if best == nil || distance < best!.distance
                || (distance == best!.distance && candidate < best!.candidate)
            {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// "; did you mean 'x'?" or "", ready to append to a message.
    package static func didYouMean<S: Sequence>(_ word: String, among candidates: S) -> String where S.Element == String {
        guard let match = closest(to: word, among: candidates) else { return "" }
        return phrase(match)
    }

    private static let phraseStart = "; did you mean '"
    private static let phraseEnd = "'?"

    /// The one wording of a suggestion, which `suggested(in:)` reads back.
    static func phrase(_ match: String) -> String { phraseStart + match + phraseEnd }

    /// The word a message suggests instead of the one its diagnostic points at ("did you mean
    /// 'x'?"), for an editor's quick fix; nil when it suggests none.
    package static func suggested(in message: String) -> String? {
        guard let start = message.range(of: phraseStart, options: .backwards) else { return nil }
        let rest = message[start.upperBound...]
        guard let end = rest.range(of: phraseEnd) else { return nil }
        let word = String(rest[..<end.lowerBound])
        return word.isEmpty ? nil : word
    }

    /// For a word that must be one of a few fixed choices: "; did you mean 'x'?" when one is
    /// close, otherwise "; <noun> are a, b and c".
    package static func hint(_ word: String, choices: [String], noun: String) -> String {
        let suggestion = didYouMean(word, among: choices)
        guard suggestion.isEmpty else { return suggestion }
        let quoted = choices.map { "'\($0)'" }
        let list = quoted.count > 1 ? quoted.dropLast().joined(separator: ", ") + " and " + quoted.last! : quoted.joined()
        return "; \(noun) are \(list)"
    }

    /// Short words tolerate one edit, longer ones about a third of their length.
    private static func threshold(for word: String) -> Int {
        max(1, min(3, word.count / 3))
    }

    /// Levenshtein distance, giving up early (returning limit + 1) once it exceeds `limit`.
    static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowMinimum = current[0]
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
