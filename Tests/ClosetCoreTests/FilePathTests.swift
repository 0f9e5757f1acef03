import Testing

@testable import ClosetCore

/// The path helper every layer uses instead of `NSString`'s path methods, which trap on Linux
/// for one-character paths.
@Suite struct FilePathTests {
    @Test func parents() {
        let cases: [(String, String)] = [
            ("s", ""), ("ab", ""), ("/", "/"), (".", ""), ("..", ""), ("a/", ""), ("/a", "/"), ("a/b", "a"),
            ("a/b/", "a"), ("a//b", "a"), ("/a/b/c", "/a/b"), ("가", ""), ("옷장/가", "옷장"), ("", ""), ("//", "/"),
        ]
        for (path, parent) in cases { #expect(FilePath.parent(of: path) == parent, "\(path)") }
    }

    @Test func lastComponents() {
        let cases: [(String, String)] = [
            ("s", "s"), ("/", "/"), (".", "."), ("..", ".."), ("a/", "a"), ("/a", "a"), ("a/b.png", "b.png"),
            ("가/나", "나"), ("", ""),
        ]
        for (path, last) in cases { #expect(FilePath.lastComponent(of: path) == last, "\(path)") }
    }

    @Test func joinsAndExtensions() {
        #expect(FilePath.join("", "a") == "a")
        #expect(FilePath.join("/", "a") == "/a")
        #expect(FilePath.join("x", "a") == "x/a")
        #expect(FilePath.join("x/", "a") == "x/a")
        #expect(FilePath.join("x", "") == "x")
        #expect(FilePath.fileExtension(of: "a/b.PNG") == "PNG")
        #expect(FilePath.fileExtension(of: ".closetrc") == "")
        #expect(FilePath.fileExtension(of: "a.b/c") == "")
        #expect(FilePath.stem(of: "dir/report.xml") == "report")
        #expect(FilePath.stem(of: "r") == "r")
    }

    @Test func normalizing() {
        #expect(FilePath.normalized("/a/./b/../c/") == "/a/c")
        #expect(FilePath.normalized("/..") == "/")
        #expect(FilePath.normalized("a/../..") == "..")
        #expect(FilePath.normalized(".") == ".")
        #expect(FilePath.normalized("//x//y") == "/x/y")
    }
}
