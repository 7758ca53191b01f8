/// `roost manual`: the roff source of roost(1), made from the commands and the option table
/// (`ManualPage`), so the page says what `--help` says.
enum ManualCommand: Command {
    static let name = "manual"
    static let summary = "print the roost(1) manual page (roff)"
    static let usage = "manual"
    static let about = """
        Prints the manual page roost(1) in roff: every command and option as --help
        lists them, the exit statuses, the files and the environment. Read it with
        'roost manual | man -l -', or install it as man1/roost.1.
        """
    static let options: [Option] = []

    static func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.expectPositionals(0, missing: "")
        Console.out(ManualPage.source())
        return ExitStatus.success
    }
}
