import ClosetLanguage
import ClosetNetwork

extension [MultipartPart] {
    /// The text of the last field named `name` (files are not fields).
    public func text(_ name: String) -> String? { last { $0.name == name && $0.filename == nil }?.text }
}

extension CommandRequest {
    /// A form's files named `field` (`images[]`) as the command's `key` argument: each an
    /// attachment the argument names (`images[0] 'kong.jpg'`, so a refusal says which file),
    /// after `prepare` (a re-encoding) when given. No file: no argument.
    public mutating func attach<Failure: Error>(
        _ parts: [MultipartPart], field: String, as key: String,
        _ prepare: (_ index: Int, _ bytes: [UInt8]) throws(Failure) -> [UInt8]
    ) throws(Failure) {
        let files = parts.filter { $0.name == field && $0.filename != nil }
        guard !files.isEmpty else { return }
        var names: [String] = []
        for (index, file) in files.enumerated() {
            let name = "\(field.dropLast(2))[\(index)] '\(file.filename ?? "")'"
            attachments[name] = try prepare(index, [UInt8](file.data))
            names.append(name)
        }
        arguments.append((key, names.joined(separator: ",")))
    }

    /// The files as they came.
    public mutating func attach(_ parts: [MultipartPart], field: String, as key: String) {
        attach(parts, field: field, as: key) { (_, bytes) throws(Never) in bytes }
    }
}
