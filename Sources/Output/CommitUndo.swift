import Support

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A change a commit made to the output, kept so a commit that fails partway puts the output
/// back as it was (SPEC 6) rather than leave the files before the failure replaced. (Twelve
/// bytes: a template edit at two million pages records as many; names and paths are in
/// `CommitRun.stepNames`, by index, or those of the move.)
enum CommitStep {
    /// `moves[move]` renamed in from its staged name: nothing was at its path.
    case added(move: Int32)
    /// `moves[move]` exchanged with the regular file at its path, now at the staged name.
    case exchanged(move: Int32)
    /// The staged folder `stepNames[folder]` moved in whole, holding `moves[move]` and the
    /// moves after it.
    case folder(move: Int32, folder: Int32)
    /// The folder `stepNames[folder]` made in the output.
    case madeFolder(Int32)
    /// What the last build left in the way of a move, moved aside: `displacements[index]`.
    case displaced(Int32)
    /// A move renamed over something the system could not exchange: not to be undone.
    case overwritten
}

/// What the last build left at `path` (a stale file, or a folder of only its stale files,
/// `positions` in the old manifest, `files` of them on disk), moved into the staging folder
/// as `name` to make way for a move: removed with it, or put back.
struct Displacement {
    var path: String
    var name: String
    var positions: [Int]
    var files: Int
}

extension CommitRun {
    /// Undoes the commit's steps, the last first, as far as each can be; `moved` and the fates
    /// then say what is on disk. True when the output is back as it was.
    mutating func undoSteps() -> Bool {
        let stagingFD = writer.stagingFD
        while let step = steps.popLast() {
            switch step {
            case .added(let move):
                let k = Int(move)
                guard renameat(dirFD, moves[k].path, stagingFD, stagedName(k)) == 0 else { return false }
                moved = k
            case .exchanged(let move):
                let k = Int(move)
                guard exchangeFile(stagingFD, stagedName(k), with: dirFD, moves[k].path) else { return false }
                moved = k
            case .folder(let move, let folder):
                let name = stepNames[Int(folder)]
                guard renameat(dirFD, name, stagingFD, name) == 0 else { return false }
                moved = Int(move)
            case .madeFolder(let folder):
                // Left (empty) if it cannot go: no file of anyone's is lost by that.
                unlinkat(dirFD, stepNames[Int(folder)], AT_REMOVEDIR)
            case .displaced(let index):
                let item = displacements[Int(index)]
                guard renameat(stagingFD, item.name, dirFD, item.path) == 0 else { return false }
                for position in item.positions { fates[position] = .stale }
                dropped -= item.positions.count
                summary.removed -= item.files
            case .overwritten:
                return false
            }
        }
        return true
    }

    /// The name `moves[k]` was staged under.
    func stagedName(_ k: Int) -> String { moves[k].flat ? SiteWriter.flatName(of: moves[k].path) : moves[k].path }

    /// Records a step that names a folder.
    mutating func recordFolder(_ folder: String, movedIn move: Int?) {
        stepNames.append(folder)
        let index = Int32(stepNames.count - 1)
        steps.append(move.map { .folder(move: Int32($0), folder: index) } ?? .madeFolder(index))
    }

    /// Moves what the last build left at `path` into the staging folder, out of the way of a
    /// new file: the stale file of the last build at `position`, or else (`position` nil) a
    /// folder holding nothing but stale files of the last build. False, with nothing changed,
    /// when it is anything else.
    mutating func displace(_ path: String, position: Int?) -> Bool {
        var positions: [Int]
        var files = 1
        if let position {
            positions = [position]
        } else {
            positions = previous.positions(withPrefix: path + "/").filter { fates[$0] == .stale }
            let stale = Set(positions.map { previous.path(at: $0) })
            guard !stale.isEmpty, let found = regularFiles(below: path), found.allSatisfy(stale.contains) else {
                return false
            }
            files = found.count
        }
        let name = PathRules.reservedPrefix + "displaced-\(displacements.count)"
        guard renameat(dirFD, path, writer.stagingFD, name) == 0 else { return false }
        displacements.append(Displacement(path: path, name: name, positions: positions, files: files))
        steps.append(.displaced(Int32(displacements.count - 1)))
        for position in positions { fates[position] = .gone }
        dropped += positions.count
        summary.removed += files
        return true
    }

    /// The paths of the files below the folder `path`, each a regular file in real folders;
    /// nil when one is anything else or a folder cannot be read.
    func regularFiles(below path: String) -> [String]? {
        guard let folder = FileDescriptor(openat(dirFD, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) else {
            return nil
        }
        guard let names = directoryEntries(folder.raw) else { return nil }
        var found: [String] = []
        for name in names {
            let child = path + "/" + name
            guard let st = lstatAt(dirFD, child).0 else { return nil }
            if isType(st, regularFileType) {
                found.append(child)
            } else if isType(st, directoryType), let below = regularFiles(below: child) {
                found += below
            } else {
                return nil
            }
        }
        return found
    }
}
