import Foundation

/// Where the system state source reads files from: the real file system, or fixed text in tests.
public struct SystemFiles: Sendable {
    public var read: @Sendable (String) -> String?
    public var list: @Sendable (String) -> [String]

    public init(read: @escaping @Sendable (String) -> String?, list: @escaping @Sendable (String) -> [String]) {
        self.read = read; self.list = list
    }

    /// Reads with Foundation; unreadable or missing files give nil / an empty list.
    public static let live = SystemFiles(
        read: { path in
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        },
        list: { path in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] })

    /// Files from a dictionary of path → contents (directories are listed from the paths).
    public static func fixed(_ files: [String: String]) -> SystemFiles {
        SystemFiles(
            read: { files[$0] },
            list: { directory in
                let prefix = directory.hasSuffix("/") ? directory : directory + "/"
                var names = Set<String>()
                for path in files.keys where path.hasPrefix(prefix) {
                    if let name = path.dropFirst(prefix.count).split(separator: "/").first { names.insert(String(name)) }
                }
                return names.sorted()
            })
    }
}
