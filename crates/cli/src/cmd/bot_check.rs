//! `ratrace bot-check`: a bot program checked against the bot protocol
//! (`analysis::botcheck`); exit status 1 when it does not conform.

use crate::args::BotCheckArgs;
use cli::Error;
use std::io::IsTerminal;

/// Runs `ratrace bot-check`.
pub(crate) fn run(args: BotCheckArgs) -> Result<bool, Error> {
    let cfg = analysis::botcheck::Config {
        command: args.command,
        games: args.games,
        seed: args.seed,
        limits: args.programs.limits()?,
        threads: analysis::all_cores_unless(args.threads),
        game: args.game,
    };
    let bar = cli::progress(!args.output.json && !args.quiet && std::io::stderr().is_terminal());
    let report = analysis::botcheck::run(&cfg, &*bar)?;
    if args.output.json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).map_err(Error::Json)?
        );
    } else {
        out!("{}", cli::botcheck::text(&report));
    }
    Ok(report.conforms)
}
