import Foundation
import PackagePlugin

/// Compiles the repository's `templates/` (the default theme) and `content/` (the sample
/// store) into the `DefaultSite` module, so that a `roost` binary copied anywhere has both.
///
/// Why a build-tool plugin: plain `swift build` (and `swift test`) runs it, with no script
/// or step before it. The alternatives each lose something: SwiftPM resources
/// (`Bundle.module`) are found at a path of the build machine, so a copied binary loses
/// them; a checked-in generated file goes stale unless every edit to the theme remembers a
/// script; Swift has no `#embed`; a C target with `.incbin` needs the files' path baked in.
///
/// Why the tool runs on every build: SwiftPM runs a build command when one of its inputs
/// changed, but it fixes the inputs when it plans the build, and it plans again only when
/// the manifest or a target's folder changes, not when a file is added to `templates/`. So
/// the command's input is a stamp file the tool rewrites each time it runs, which keeps the
/// command out of date. The tool takes ~20 ms and rewrites the generated source only when
/// its bytes differ, so nothing is compiled again unless a file of the two folders changed.
@main
struct EmbedDefaultSite: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let work = context.pluginWorkDirectoryURL
        let output = work.appendingPathComponent("EmbeddedFiles.swift")
        let stamp = work.appendingPathComponent("embed-files.stamp")
        // The input must exist before the first run.
        if !FileManager.default.fileExists(atPath: stamp.path) {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try Data().write(to: stamp)
        }
        return [
            .buildCommand(
                displayName: "Embedding the default theme and the sample store in \(target.name)",
                executable: try context.tool(named: "embed-files").url,
                arguments: [
                    output.path, stamp.path,
                    "theme=" + root.appendingPathComponent("templates").path,
                    "store=" + root.appendingPathComponent("content").path,
                ],
                inputFiles: [stamp], outputFiles: [output])
        ]
    }
}
