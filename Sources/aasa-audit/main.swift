Subcommands.main(Array(CommandLine.arguments.dropFirst()))
