#pragma once
// The one place where units convert. Every quantity inside the model is SI (bytes, seconds,
// FLOP, FLOP/s, bytes/s); every field a user sees carries its unit in its name.
// Vendors quote bandwidth in decimal units (1 GB/s = 1e9 bytes/s) and capacity in binary
// units (1 GiB = 2^30 bytes); we follow them.

namespace comet::units {

inline constexpr double bytes_per_gib = 1073741824.0;
inline constexpr double bytes_per_gb = 1e9;

[[nodiscard]] constexpr double gib_to_bytes(double gib) noexcept { return gib * bytes_per_gib; }
[[nodiscard]] constexpr double bytes_to_gib(double bytes) noexcept { return bytes / bytes_per_gib; }
[[nodiscard]] constexpr double gbps_to_bytes_per_s(double gbps) noexcept { return gbps * bytes_per_gb; }
[[nodiscard]] constexpr double gbit_per_s_to_gbps(double gbit) noexcept { return gbit / 8.0; }
[[nodiscard]] constexpr double tflops_to_flops(double tflops) noexcept { return tflops * 1e12; }
[[nodiscard]] constexpr double flops_to_tflops(double flops) noexcept { return flops * 1e-12; }
[[nodiscard]] constexpr double us_to_s(double us) noexcept { return us * 1e-6; }
[[nodiscard]] constexpr double ns_to_s(double ns) noexcept { return ns * 1e-9; }
[[nodiscard]] constexpr double s_to_ms(double s) noexcept { return s * 1e3; }

}  // namespace comet::units
