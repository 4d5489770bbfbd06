#pragma once
// Ctrl-C and a progress bar for the long-running commands (search, sweep).

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <utility>

#include <unistd.h>

namespace comet::cli {

namespace detail {
static_assert(std::atomic<bool>::is_always_lock_free, "the SIGINT flag must be safe to set from a signal handler");
inline std::atomic<bool> interrupted{false};
inline void on_sigint(int) noexcept { interrupted.store(true); }
}  // namespace detail

// While alive, Ctrl-C (SIGINT) sets flag() instead of killing the process, so that the engine
// stops at its next check; a second Ctrl-C kills as usual (SA_RESETHAND). The previous
// handler is restored on destruction.
class InterruptGuard {
public:
    InterruptGuard() {
        detail::interrupted.store(false);
        struct sigaction sa {};
        sa.sa_handler = detail::on_sigint;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESETHAND | SA_RESTART;
        installed_ = ::sigaction(SIGINT, &sa, &previous_) == 0;
    }
    ~InterruptGuard() {
        if (installed_) ::sigaction(SIGINT, &previous_, nullptr);
    }
    InterruptGuard(const InterruptGuard&) = delete;
    InterruptGuard& operator=(const InterruptGuard&) = delete;

    [[nodiscard]] const std::atomic<bool>* flag() const noexcept { return &detail::interrupted; }
    [[nodiscard]] bool interrupted() const noexcept { return detail::interrupted.load(); }

private:
    struct sigaction previous_ {};
    bool installed_ = false;
};

// A one-line progress bar on stderr, drawn only when enabled (stderr is a terminal and the user
// did not ask for quiet). update() may be called from any thread: callers never wait for each
// other (a busy bar skips the update) and the bar is redrawn at most ten times a second.
class ProgressBar {
public:
    ProgressBar(bool enabled, std::string label) : enabled_(enabled), label_(std::move(label)) {}
    ~ProgressBar() { finish(); }
    ProgressBar(const ProgressBar&) = delete;
    ProgressBar& operator=(const ProgressBar&) = delete;

    [[nodiscard]] static bool stderr_is_terminal() noexcept { return ::isatty(2) == 1; }

    void update(std::uint64_t done, std::uint64_t total) {
        if (!enabled_ || total == 0) return;
        std::unique_lock lock(mutex_, std::try_to_lock);
        if (!lock.owns_lock()) return;
        const auto now = std::chrono::steady_clock::now();
        if (drawn_ && done < total && now - last_ < std::chrono::milliseconds(100)) return;
        last_ = now;
        drawn_ = true;
        constexpr int width = 30;
        done = std::min(done, total);
        const double fraction = static_cast<double>(done) / static_cast<double>(total);
        const int filled = static_cast<int>(fraction * width);
        std::string bar(static_cast<std::size_t>(filled), '#');
        bar.append(static_cast<std::size_t>(width - filled), '.');
        std::fprintf(stderr, "\r%s [%s] %3d %% (%llu of %llu)", label_.c_str(), bar.c_str(), static_cast<int>(fraction * 100),
                     static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
        std::fflush(stderr);
    }

    // Clears the bar's line, so that what follows starts on a clean line.
    void finish() {
        const std::lock_guard lock(mutex_);
        if (!drawn_) return;
        std::fprintf(stderr, "\r\033[K");
        std::fflush(stderr);
        drawn_ = false;
    }

private:
    bool enabled_;
    std::string label_;
    std::mutex mutex_;
    bool drawn_ = false;
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace comet::cli
