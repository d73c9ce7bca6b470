/** The command line: one thin picocli class per subcommand, each making one domain call. */
package cctk.cli;
