/// A closure in the context.
///
/// In a section `{{#name}}…{{/name}}` it is called with the section's raw,
/// unrendered text; in an interpolation `{{name}}` with the empty string.
/// What it returns is rendered as a template against the current context
/// (with the section's delimiters, or the default ones for interpolations).
/// In an inverted section a lambda counts as truthy and is not called.
package struct MustacheLambda: Sendable {
    let body: @Sendable (String) -> String

    package init(_ body: @escaping @Sendable (String) -> String) { self.body = body }
    package init(_ body: @escaping @Sendable () -> String) { self.body = { _ in body() } }
}
