#pragma once
// Value -> colour for the heatmap: viridis (perceptually uniform, colour-blind safe), oriented so
// that the better end of the metric is always the bright end, on a log scale when the data spans
// many decades.

#include <QColor>
#include <span>
#include <vector>

namespace comet::ui {

class ColorScale {
public:
    ColorScale() = default;  // empty: no finite values
    // Range from the finite values (NaN and infinities are ignored); log scale when they are all
    // positive and span more than 1.5 decades.
    ColorScale(std::span<const double> values, bool higher_is_better);
    ColorScale(double min, double max, bool higher_is_better, bool log);
    // Categories 0..count-1 (a strategy family map): one distinct colour each (Okabe and Ito's
    // colour-blind-safe set, then greys), equal blocks on the bar, every category a tick.
    [[nodiscard]] static ColorScale categorical(int count);
    [[nodiscard]] int categories() const { return categories_; }  // 0 = a numeric scale
    [[nodiscard]] static QColor category_color(int index);

    [[nodiscard]] bool empty() const { return empty_; }
    [[nodiscard]] double min() const { return min_; }
    [[nodiscard]] double max() const { return max_; }
    [[nodiscard]] bool log() const { return log_; }
    [[nodiscard]] bool higher_is_better() const { return higher_is_better_; }

    // Position of a value between min (0) and max (1), clamped; 0.5 when min == max; NaN for NaN.
    [[nodiscard]] double normalized(double v) const;
    // The colour of a value; an invalid QColor for NaN or an empty scale.
    [[nodiscard]] QColor color(double v) const;
    // The colour at a normalised position (the colour bar): bright at the better end.
    [[nodiscard]] QColor color_at(double t) const;
    // Round values inside [min, max] for the colour bar, at most max_count of them.
    [[nodiscard]] std::vector<double> ticks(int max_count) const;

    // Viridis from dark (0) to bright (1).
    [[nodiscard]] static QColor palette(double t);
    // Smallest RGB distance (0..441) from c to any colour of the palette.
    [[nodiscard]] static double palette_distance(const QColor& c);

private:
    double min_ = 0;
    double max_ = 0;
    bool log_ = false;
    bool higher_is_better_ = true;
    bool empty_ = true;
    int categories_ = 0;
};

}  // namespace comet::ui
