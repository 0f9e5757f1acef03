/// Path arithmetic on strings, with no file-system access. Foundation's `NSString` path
/// methods trap on Linux for some inputs (`deletingLastPathComponent` of any one-character
/// path), so every layer splits and joins paths here instead. Slashes are separators; a
/// run of them counts as one; nothing else is interpreted (no `~`, no symbolic links).
public enum FilePath {
    /// The folder part: `a/b` → `a`, `/a` → `/`, `a` → ``, `a/b/` → `a`, `/` → `/`.
    public static func parent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let folder = withoutTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// The last part: `a/b` → `b`, `a/b/` → `b`, `/` → `/`, `` → ``.
    public static func lastComponent(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard trimmed != "/" else { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `component` inside `folder`; `folder` empty leaves `component` as it is.
    public static func join(_ folder: String, _ component: String) -> String {
        guard !folder.isEmpty else { return component }
        guard !component.isEmpty else { return folder }
        return folder.hasSuffix("/") ? folder + component : folder + "/" + component
    }

    /// The extension of the last part, without its dot: `a/b.png` → `png`; `` for `.rc`
    /// files and names without a dot.
    public static func fileExtension(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The last part without its extension: `a/report.xml` → `report`.
    public static func stem(of path: String) -> String {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `.` parts dropped, `..` parts taken back where they can be, repeated slashes folded:
    /// `/a/./b/../c/` → `/a/c`. A relative path keeps the `..` parts that lead above it.
    public static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !absolute {
                    parts.append(part)
                }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }
}
