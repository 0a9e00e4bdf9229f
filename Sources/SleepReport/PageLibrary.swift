import Mustache
import SleepCore

/// The pages' templates, rendered with every string of the context made printable first.
///
/// Mustache's `{{ }}` escapes markup (&, <, >, ", '), not what a browser does with Unicode: a
/// right-to-left override (U+202E) in a survey answer, a comment of a sleep app or a device serial
/// quoted in a stored warning would turn the rest of its line around (`gnp.csv` shown as
/// `vsc.png`), and other control characters are invisible. So no string from input reaches a page
/// raw: every string value, however deep in the context, goes through ``PrintableText`` (line
/// breaks and tabs kept, which HTML shows as spaces) before it is rendered.
package struct PageLibrary {
    let templates: MustacheLibrary

    init(_ register: (inout MustacheLibrary) throws -> Void) {
        var lib = MustacheLibrary()
        do { try register(&lib) } catch {
            preconditionFailure("built-in template does not parse: \(error)")
        }
        templates = lib
    }

    func render(_ context: [String: Any], withTemplate name: String) -> String? {
        templates.render(Self.printable(context), withTemplate: name)
    }

    /// `value` with every string in it made printable: dictionaries and arrays are walked, other
    /// values (flags, numbers) kept.
    package static func printable(_ value: Any) -> Any {
        switch value {
        case let text as String: return PrintableText.escaped(text, keepingLineBreaks: true)
        case let dictionary as [String: Any]: return dictionary.mapValues(printable)
        case let array as [Any]: return array.map(printable)
        default: return value
        }
    }
}
