#pragma once
// How every command reads its arguments. CLI11 (libcli11-dev) splits the command line: options
// with a value as "--opt VALUE" or "--opt=VALUE" (negative numbers are values), flags,
// positionals, -h/--help. The command then checks each value in the order the user wrote them,
// with a message that names the option, the value and what is allowed; every error is printed
// as "comet-cli COMMAND: message" and exits 2, --help prints the command's usage and exits 0.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.hpp"

namespace comet::cli {

class CommandLine {
public:
    // `command` as the user typed it ("comet-cli search"); `usage` prints the command's --help.
    CommandLine(std::string command, std::function<void()> usage) : command_(std::move(command)), usage_(std::move(usage)) {
        app_.allow_extras(true);  // unknown options are reported by parse(), with the command's words
        app_.set_help_flag("-h,--help");
        app_.add_option("positionals", positionals_)->expected(0, -1);
    }

    // An option with one value. `missing` is the message when the value is missing; `check`
    // takes the value and returns a problem ("" when it is fine). Given twice, each is checked
    // and the last one wins, as the checks assign in order.
    void option(const std::string& name, std::string missing, std::function<std::string(const std::string&)> check) {
        CLI::Option* o =
            app_.add_option(name)->expected(0, 1)->allow_extra_args(false)->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
        checks_[o] = Check{std::move(missing), std::move(check)};
    }
    // A flag (no value): `on` runs each time it is given.
    void flag(const std::string& names, std::function<void()> on) {
        CLI::Option* o = app_.add_flag(names);
        flags_[o] = std::move(on);
    }

    // Parses and checks. Returns the exit status to return at once (0 after --help, 2 after a
    // message), or nothing to go on; positionals() then holds the non-option arguments.
    [[nodiscard]] std::optional<int> parse(Args args) {
        std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 takes them last first
        try {
            app_.parse(reversed);
        } catch (const CLI::CallForHelp&) {
            usage_();
            return exit_ok;
        } catch (const CLI::ParseError& e) {
            return bad(e.what());
        }
        for (const std::string& extra : app_.remaining())
            if (!extra.empty() && extra[0] == '-') return bad("unknown option '" + extra + "' (see '" + command_ + " --help')");
        std::map<const CLI::Option*, std::size_t> seen;
        for (const CLI::Option* o : app_.parse_order()) {
            if (const auto f = flags_.find(o); f != flags_.end()) {
                f->second();
                continue;
            }
            const auto c = checks_.find(o);
            if (c == checks_.end()) continue;  // the positionals
            const std::vector<std::string>& values = o->results();
            const std::size_t k = seen[o]++;
            // A missing value (the option last, or followed by another option) arrives empty.
            if (values.size() < o->count() || k >= values.size() || values[k].empty()) return bad(c->second.missing);
            if (std::string problem = c->second.check(values[k]); !problem.empty()) return bad(problem);
        }
        return std::nullopt;
    }

    [[nodiscard]] const std::vector<std::string>& positionals() const noexcept { return positionals_; }

    // At most one positional (the scenario or data file): its value, or "" when there is none.
    // A second one is bad input: "`what` expected, got 'X' too".
    [[nodiscard]] std::optional<int> single_file(std::string& file, std::string_view what = "one scenario file") {
        if (positionals_.size() > 1) return bad(std::string(what) + " expected, got '" + positionals_[1] + "' too");
        file = positionals_.empty() ? std::string() : positionals_.front();
        return std::nullopt;
    }

    // Prints "COMMAND: message" on stderr and returns the exit status of bad input.
    int bad(const std::string& message) const {
        std::fprintf(stderr, "%s: %s\n", command_.c_str(), message.c_str());
        return exit_bad_input;
    }

private:
    struct Check {
        std::string missing;
        std::function<std::string(const std::string&)> check;
    };
    std::string command_;
    std::function<void()> usage_;
    CLI::App app_;
    std::vector<std::string> positionals_;
    std::map<const CLI::Option*, Check> checks_;
    std::map<const CLI::Option*, std::function<void()>> flags_;
};

}  // namespace comet::cli
