import SyncGenerator

/// What the server tells the client it can do.
enum Capabilities {
    static let initializeResult: JSON = [
        "capabilities": [
            // Whole documents on each change (1): schema files are small, and whole texts cannot
            // drift out of step with the client's.
            "textDocumentSync": ["openClose": true, "change": 1, "save": ["includeText": false]],
            "completionProvider": ["triggerCharacters": [":", " ", "[", ",", "{"]],
            "hoverProvider": true,
            "definitionProvider": true,
            "referencesProvider": true,
            "renameProvider": true,
            "documentSymbolProvider": true,
            "codeActionProvider": ["codeActionKinds": ["quickfix"]],
        ],
        "serverInfo": ["name": "syncgen", "version": .string(SyncgenVersion.current)],
    ]
}
