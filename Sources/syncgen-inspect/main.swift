import Foundation

// syncgen-inspect: where sync stands in a store file, read offline (`syncgen-inspect --help`).
do {
    let inspector = try Inspector(arguments: Array(CommandLine.arguments.dropFirst()))
    Inspector.watchForASwappedPath(inspector.storeURL)
    print(try inspector.run())
} catch let usage as Inspector.UsageError {
    FileHandle.standardError.write(Data("syncgen-inspect: \(usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("syncgen-inspect: \(error)\n".utf8))
    exit(1)
}
