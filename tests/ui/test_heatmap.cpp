// The heatmap: geometry and colour scale without pixels, make_heatmap_data on a hand-built sweep,
// and the widget rendered offscreen (pixels, mouse, keyboard).

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <limits>
#include <set>

#include "comet/economics.hpp"
#include "common/axis_defaults.hpp"
#include "heatmap/color_scale.hpp"
#include "heatmap/heatmap_data.hpp"
#include "heatmap/heatmap_geometry.hpp"
#include "heatmap/heatmap_widget.hpp"
#include "heatmap/nice_ticks.hpp"
#include "ui_fixtures.hpp"

using namespace comet;
using namespace comet::ui;

namespace {

constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();

// Text widths as a 7-pixel-per-character font would give them: no QFont needed.
double text_width(const QString& s) { return 7.0 * static_cast<double>(s.size()); }

HeatmapLayoutInput layout_input(int nx, int ny, QSizeF size, bool wide_labels = false) {
    HeatmapLayoutInput in;
    in.size = size;
    in.nx = nx;
    in.ny = ny;
    in.text_height = 15;
    in.title_height = 19;
    const auto xs = wide_labels ? log_values(0.125, 131072, nx) : log_values(1000, 8000, nx);
    for (double v : xs) in.x_label_widths.push_back(text_width(format_axis_value(v)));
    for (double v : log_values(6.25, 100, ny)) in.y_label_width = std::max(in.y_label_width, text_width(format_axis_value(v)));
    in.bar_label_width = text_width(QStringLiteral("61.2 k tokens/s"));
    in.legend_width = 220;
    in.y_title = ny > 1;
    return in;
}

double luma(const QColor& c) { return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF(); }

bool is_grey(const QColor& c) { return c.red() == c.green() && c.green() == c.blue(); }

Result feasible_result(double iteration_s, double tokens_per_s) {
    Result r;
    r.feasible = true;
    r.iteration_s = iteration_s;
    r.time.compute_s = 0.6 * iteration_s;
    r.time.bubble_s = 0.2 * iteration_s;
    r.time.dp_comm_s = 0.2 * iteration_s;
    r.tokens_per_s = tokens_per_s;
    r.mfu = 0.4;
    r.hbm.weights_bytes = 40.0 * 1073741824.0;
    r.hbm.capacity_bytes = 80.0 * 1073741824.0;
    return r;
}

Result too_big() {
    Result r;
    r.feasible = false;
    r.reason = Infeasible::hbm_capacity;
    r.detail_a = 93.2 * 1073741824.0;
    r.detail_b = 80.0 * 1073741824.0;
    r.hbm.weights_bytes = 93.2 * 1073741824.0;
    r.hbm.capacity_bytes = 80.0 * 1073741824.0;
    return r;
}

// 3 x 2 sweep of HBM bandwidth x scale-out bandwidth. Fastest at (2, 1); highest throughput at
// (0, 1) (the numbers are independent on purpose); (1, 0) does not fit.
struct HandSweep {
    SweepSpec spec;
    SweepResult result;
};

HandSweep hand_sweep() {
    HandSweep h;
    h.spec.x = Axis{Knob::hbm_gbps, {1000, 2000, 4000}};
    h.spec.y = Axis{Knob::scale_out_gbps, {12.5, 25}};
    h.result.nx = 3;
    h.result.ny = 2;
    const double times[2][3] = {{4.0, 0, 3.0}, {3.5, 2.5, 1.5}};
    const double tokens[2][3] = {{1e5, 0, 2e5}, {9e5, 3e5, 4e5}};
    for (int iy = 0; iy < 2; ++iy) {
        for (int ix = 0; ix < 3; ++ix) {
            SweepCell c;
            c.x = h.spec.x.values[static_cast<std::size_t>(ix)];
            c.y = h.spec.y->values[static_cast<std::size_t>(iy)];
            c.strategy.tp = 8;
            c.strategy.pp = 4;
            c.evaluated = 1;
            c.result = (ix == 1 && iy == 0) ? too_big() : feasible_result(times[iy][ix], tokens[iy][ix]);
            h.result.cells.push_back(c);
        }
    }
    return h;
}

void add_size_rows() {
    QTest::addColumn<int>("nx");
    QTest::addColumn<int>("ny");
    QTest::addColumn<QSizeF>("size");
    QTest::newRow("1x1") << 1 << 1 << QSizeF(900, 600);
    QTest::newRow("8x1 strip") << 8 << 1 << QSizeF(900, 600);
    QTest::newRow("4x3") << 4 << 3 << QSizeF(640, 480);
    QTest::newRow("5x7 small") << 5 << 7 << QSizeF(400, 300);
    QTest::newRow("32x32") << 32 << 32 << QSizeF(900, 600);
    QTest::newRow("64x64") << 64 << 64 << QSizeF(700, 500);
    QTest::newRow("128x3 wide") << 128 << 3 << QSizeF(1200, 400);
    QTest::newRow("3x100 tall") << 3 << 100 << QSizeF(500, 900);
}

}  // namespace

class TestHeatmap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<CellIndex>(); }

    // ---- geometry ----
    void cellCentreRoundTrips_data() { add_size_rows(); }
    void cellCentreRoundTrips() {
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(QSizeF, size);
        const HeatmapGeometry g(layout_input(nx, ny, size));
        QVERIFY(!g.plot().isEmpty());
        for (int iy = 0; iy < ny; ++iy) {
            for (int ix = 0; ix < nx; ++ix) {
                const QRectF r = g.cell_rect({ix, iy});
                QVERIFY(!r.isEmpty());
                QCOMPARE(g.cell_at(r.center()), std::optional<CellIndex>(CellIndex{ix, iy}));
                QCOMPARE(g.cell_at(r.topLeft()), std::optional<CellIndex>(CellIndex{ix, iy}));  // half-open
            }
        }
    }

    void pointsOutsideThePlotHitNothing_data() { add_size_rows(); }
    void pointsOutsideThePlotHitNothing() {
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(QSizeF, size);
        const HeatmapGeometry g(layout_input(nx, ny, size));
        const QRectF p = g.plot();
        const QPointF c = p.center();
        for (QPointF q :
             {QPointF(p.left() - 0.5, c.y()), QPointF(p.right(), c.y()), QPointF(c.x(), p.top() - 0.5), QPointF(c.x(), p.bottom()),
              QPointF(0, 0), QPointF(-100, -100), QPointF(size.width(), size.height()), g.colorbar().center(), g.title_rect().center()})
            QVERIFY2(!g.cell_at(q), qPrintable(QStringLiteral("(%1, %2)").arg(q.x()).arg(q.y())));
        QVERIFY(!g.cell_rect({-1, 0}).isValid());
        QVERIFY(!g.cell_rect({nx, 0}).isValid());
    }

    void cellsTileThePlot_data() { add_size_rows(); }
    void cellsTileThePlot() {
        QFETCH(int, nx);
        QFETCH(int, ny);
        QFETCH(QSizeF, size);
        const HeatmapGeometry g(layout_input(nx, ny, size));
        const QRectF p = g.plot();
        double area = 0;
        for (int iy = 0; iy < ny; ++iy) {
            for (int ix = 0; ix < nx; ++ix) {
                const QRectF r = g.cell_rect({ix, iy});
                area += r.width() * r.height();
                QVERIFY(p.contains(r));
                if (ix + 1 < nx) QCOMPARE(g.cell_rect({ix + 1, iy}).left(), r.right());
                if (iy + 1 < ny) QCOMPARE(g.cell_rect({ix, iy + 1}).bottom(), r.top());  // row 0 at the bottom
            }
        }
        QCOMPARE(area, p.width() * p.height());
        QCOMPARE(g.cell_rect({0, 0}).bottomLeft(), p.bottomLeft());
        QCOMPARE(g.cell_rect({nx - 1, ny - 1}).topRight(), p.topRight());
        QCOMPARE(p.left(), std::round(p.left()));  // whole pixels: no seams between painted cells
        QCOMPARE(p.bottom(), std::round(p.bottom()));
    }

    void tickLabelsNeverOverlap_data() {
        QTest::addColumn<QSizeF>("size");
        QTest::addColumn<bool>("wide");
        for (QSizeF s : {QSizeF(320, 240), QSizeF(600, 400), QSizeF(900, 600), QSizeF(1600, 1000), QSizeF(2000, 300)})
            for (bool wide : {false, true}) QTest::addRow("%gx%g%s", s.width(), s.height(), wide ? " wide labels" : "") << s << wide;
    }
    void tickLabelsNeverOverlap() {
        QFETCH(QSizeF, size);
        QFETCH(bool, wide);
        const QRectF widget(QPointF(0, 0), size);
        for (int n = 1; n <= 128; ++n) {
            const HeatmapGeometry g(layout_input(n, n, size, wide));
            const auto& xt = g.x_ticks();
            const auto& yt = g.y_ticks();
            QVERIFY2(!xt.empty() && xt.front().index == 0, qPrintable(QString::number(n)));
            QCOMPARE(yt.empty(), n == 1);  // a 1-D row has no y ticks
            QVERIFY(widget.contains(g.colorbar()));
            QVERIFY(widget.contains(g.x_title_rect()));
            QVERIFY(!g.x_title_rect().intersects(g.plot()));
            for (std::size_t i = 0; i < xt.size(); ++i) {
                QVERIFY(widget.contains(xt[i].label));
                QVERIFY(!xt[i].label.intersects(g.plot()));
                QVERIFY(!xt[i].label.intersects(g.colorbar()));
                QVERIFY(!xt[i].label.intersects(g.x_title_rect()));
                if (i > 0) QVERIFY2(xt[i - 1].label.right() < xt[i].label.left(), qPrintable(QStringLiteral("n=%1 i=%2").arg(n).arg(i)));
                for (const AxisTick& y : yt) QVERIFY(!xt[i].label.intersects(y.label));
            }
            for (std::size_t i = 0; i < yt.size(); ++i) {
                QVERIFY(widget.contains(yt[i].label));
                QVERIFY(!yt[i].label.intersects(g.plot()));
                QVERIFY(!yt[i].label.intersects(g.title_rect()));
                if (i > 0) QVERIFY2(yt[i].label.bottom() < yt[i - 1].label.top(), qPrintable(QStringLiteral("n=%1 i=%2").arg(n).arg(i)));
            }
        }
    }

    // ---- round-value axis ticks ----
    void niceTicksAreRoundAndInside_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("count");
        QTest::addColumn<bool>("log");
        QTest::addColumn<std::vector<double>>("expected");
        QTest::newRow("linear 400-800") << 400.0 << 800.0 << 5 << false << std::vector<double>{400, 500, 600, 700, 800};
        QTest::newRow("linear 510-721") << 510.0 << 721.0 << 4 << false << std::vector<double>{600, 700};
        QTest::newRow("linear 0.1-0.9") << 0.1 << 0.9 << 5 << false << std::vector<double>{0.2, 0.4, 0.6, 0.8};
        QTest::newRow("log HBM 510-8156") << 509.75 << 8156.0 << 6 << true << std::vector<double>{1000, 2000, 3000, 5000};
        QTest::newRow("log HBM 510-8156, wide")
            << 509.75 << 8156.0 << 15 << true << std::vector<double>{600, 700, 800, 900, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000};
        QTest::newRow("log HBM 510-8156, three") << 509.75 << 8156.0 << 3 << true << std::vector<double>{1000, 2000, 5000};
        QTest::newRow("log 6.25-100") << 6.25 << 100.0 << 6 << true << std::vector<double>{10, 20, 30, 50, 100};
        QTest::newRow("log 6.25-100, two") << 6.25 << 100.0 << 2 << true << std::vector<double>{10, 100};
        QTest::newRow("log under a decade") << 600.0 << 900.0 << 5 << true << std::vector<double>{600, 700, 800, 900};
    }
    void niceTicksAreRoundAndInside() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, count);
        QFETCH(bool, log);
        QFETCH(std::vector<double>, expected);
        const std::vector<double> t = nice_ticks(lo, hi, count, log);
        QCOMPARE(t.size(), expected.size());
        for (std::size_t i = 0; i < t.size(); ++i) {
            QVERIFY2(std::abs(t[i] - expected[i]) <= 1e-9 * expected[i], qPrintable(QString::number(t[i])));
            QVERIFY(is_round(t[i]));
            QVERIFY(t[i] >= lo && t[i] <= hi);
        }
        QVERIFY(static_cast<int>(t.size()) <= count);
    }

    void roundnessAndFractionalIndex() {
        for (double v : {0.0, 0.25, 0.9, 1.5, 5.0, 80.0, 500.0, 2500.0, 1e6, -200.0}) QVERIFY2(is_round(v), qPrintable(QString::number(v)));
        for (double v : {510.0, 606.0, 721.0, 6.25, 1184.0, nan_v}) QVERIFY2(!is_round(v), qPrintable(QString::number(v)));
        const std::vector<double> geo{100, 200, 400};
        QCOMPARE(*fractional_index(geo, 200, true), 1.0);
        QVERIFY(std::abs(*fractional_index(geo, 100 * std::sqrt(2.0), true) - 0.5) < 1e-12);
        QVERIFY(std::abs(*fractional_index(geo, 300, false) - 1.5) < 1e-12);
        QCOMPARE(*fractional_index(geo, 400, true), 2.0);
        QVERIFY(!fractional_index(geo, 50, true));
        QVERIFY(!fractional_index(geo, 401, false));
        const std::vector<double> down{3, 2, 1};
        QVERIFY(std::abs(*fractional_index(down, 2.5, false) - 0.5) < 1e-12);
        const std::vector<double> unsorted{1, 3, 2};
        QVERIFY(!fractional_index(unsorted, 2.5, false));
    }

    // A 33 x 33 grid of HBM bandwidth (a quarter to four times 2039 GB/s) by scale-out bandwidth
    // (6.25 to 100 GB/s): ticks at round values, at their place between the cells.
    void continuousAxesAreLabelledAtRoundValues_data() {
        QTest::addColumn<QSizeF>("size");
        for (QSizeF s : {QSizeF(500, 320), QSizeF(900, 600), QSizeF(1800, 450), QSizeF(1600, 1000)})
            QTest::addRow("%gx%g", s.width(), s.height()) << s;
    }
    void continuousAxesAreLabelledAtRoundValues() {
        QFETCH(QSizeF, size);
        HeatmapLayoutInput in = layout_input(33, 33, size);
        in.x_scale = {log_values(2039.0 / 4, 2039.0 * 4, 33), true};
        in.y_scale = {log_values(6.25, 100, 33), true};
        in.value_label_width = [](double v) { return text_width(format_axis_value(v)); };
        const HeatmapGeometry g(in);
        const QRectF widget(QPointF(0, 0), size);
        auto check = [&](const std::vector<AxisTick>& ticks, const AxisScale& scale, bool x) {
            QVERIFY2(ticks.size() >= 2, qPrintable(QString::number(ticks.size())));
            for (std::size_t i = 0; i < ticks.size(); ++i) {
                const AxisTick& t = ticks[i];
                QVERIFY2(std::isfinite(t.value) && is_round(t.value), qPrintable(QString::number(t.value)));
                QVERIFY(widget.contains(t.label));
                QVERIFY(!t.label.intersects(g.plot()));
                // Between the centres of the two cells whose values bracket it.
                const auto below = std::upper_bound(scale.values.begin(), scale.values.end(), t.value) - scale.values.begin() - 1;
                QVERIFY(below >= 0);
                const auto above = std::min<std::ptrdiff_t>(below + 1, 32);
                const auto centre = [&](std::ptrdiff_t k) {
                    const QPointF c = g.cell_rect(x ? CellIndex{int(k), 0} : CellIndex{0, int(k)}).center();
                    return x ? c.x() : c.y();
                };
                const double a = centre(below), b = centre(above);
                QVERIFY2(t.pos >= std::min(a, b) - 0.5 && t.pos <= std::max(a, b) + 0.5,
                         qPrintable(QStringLiteral("%1 at %2, cells at %3 and %4").arg(t.value).arg(t.pos).arg(a).arg(b)));
                if (i > 0) {
                    QVERIFY(t.value > ticks[i - 1].value);
                    if (x)
                        QVERIFY(ticks[i - 1].label.right() < t.label.left());
                    else
                        QVERIFY(t.label.bottom() < ticks[i - 1].label.top());
                }
            }
        };
        check(g.x_ticks(), in.x_scale, true);
        check(g.y_ticks(), in.y_scale, false);
        for (const AxisTick& t : g.x_ticks()) QVERIFY(!t.label.intersects(g.colorbar()));
    }

    void heatmapWidgetTicksHBMAtRoundValuesAndCountsAtCells() {
        HeatmapData d;
        d.nx = 33;
        d.ny = 4;
        d.x_values = log_values(2039.0 / 4, 2039.0 * 4, 33);
        d.y_values = {1, 2, 4, 8};
        d.x_label = QStringLiteral("HBM bandwidth (GB/s)");
        d.y_label = QStringLiteral("Tensor parallelism");
        d.x_log = true;
        d.y_log = true;
        d.x_continuous = true;
        d.y_continuous = false;  // a count: every value is a cell
        for (int i = 0; i < d.nx * d.ny; ++i) d.cells.push_back(HeatmapCell{1.0 + i, {}, {}, true});
        HeatmapWidget w;
        w.setData(d);
        const HeatmapGeometry g = w.layoutFor(QSizeF(1200, 500));
        QVERIFY(g.x_ticks().size() >= 2);
        for (const AxisTick& t : g.x_ticks()) QVERIFY2(is_round(t.value), qPrintable(QString::number(t.value)));
        QCOMPARE(g.y_ticks().size(), std::size_t{4});
        for (const AxisTick& t : g.y_ticks()) QVERIFY(std::isnan(t.value));
        // Both knobs of the hand-made sweep are continuous; tensor parallelism is a count.
        const HandSweep h = hand_sweep();
        const HeatmapData made = make_heatmap_data(h.spec, h.result, Metric::iteration_time, std::nullopt);
        QVERIFY(made.x_continuous && made.y_continuous);
        SweepSpec tp = h.spec;
        tp.x.knob = Knob::tp;
        QVERIFY(!make_heatmap_data(tp, h.result, Metric::iteration_time, std::nullopt).x_continuous);
    }

    // Presentation-size text on a short heatmap: the y title wraps beside itself, nothing elided.
    void longYTitleWrapsInsteadOfEliding() {
        HeatmapWidget w;
        HeatmapData d = test::small_heatmap();
        d.y_label = QStringLiteral("Scale-out bandwidth per node (GB/s)");
        w.setData(d);
        QFont f = w.font();
        f.setPixelSize(28);
        w.setFont(f);
        w.resize(1800, 420);
        const HeatmapGeometry g = w.layoutFor(QSizeF(w.size()));
        const double th = QFontMetricsF(f).height();
        QVERIFY2(g.y_title_rect().height() >= 2 * th - 0.5, qPrintable(QString::number(g.y_title_rect().height())));
        QVERIFY(g.y_title_rect().right() <= g.plot().left());
        for (const QString& t : w.shownTexts()) QVERIFY2(!t.contains(QChar(0x2026)), qPrintable(t));
        QVERIFY(w.shownTexts().join(QLatin1Char(' ')).contains(QStringLiteral("Scale-out")));
        // Roomy: one line, as before.
        w.resize(1800, 1000);
        QCOMPARE(w.layoutFor(QSizeF(w.size())).y_title_rect().height(), th);
    }

    void oneDimensionalIsAStrip() {
        const HeatmapGeometry g(layout_input(32, 1, QSizeF(900, 600)));
        QVERIFY(g.y_ticks().empty());
        QVERIFY(g.plot().height() < 100);  // not a wall of 500-pixel bars
        QVERIFY(g.colorbar().height() >= 8 * 15);
        const HeatmapGeometry one(layout_input(1, 1, QSizeF(900, 600)));
        QCOMPARE(one.cell_rect({0, 0}), one.plot());
    }

    void emptyGridHitsNothing() {
        const HeatmapGeometry g(layout_input(0, 0, QSizeF(900, 600)));
        QVERIFY(!g.cell_at(QPointF(450, 300)));
        QVERIFY(g.x_ticks().empty());
    }

    void nonOverlappingKeepsFirstOfEachClash() {
        const std::vector<QRectF> r{QRectF(0, 0, 10, 10), QRectF(5, 5, 10, 10), QRectF(20, 0, 10, 10), QRectF(25, 0, 10, 10)};
        QCOMPARE(non_overlapping(r), (std::vector<std::size_t>{0, 2}));
    }

    // ---- colour scale ----
    void paletteLuminanceIsMonotonic() {
        // Between anchors the channels are rounded to 8 bits: allow that much, never a real dip.
        const double quantum = 1.0 / 255;
        double previous = -1;
        for (int i = 0; i <= 1000; ++i) {
            const double l = luma(ColorScale::palette(i / 1000.0));
            QVERIFY2(l >= previous - quantum, qPrintable(QString::number(i)));
            previous = std::max(previous, l);
        }
        for (int i = 1; i <= 32; ++i) QVERIFY(luma(ColorScale::palette(i / 32.0)) > luma(ColorScale::palette((i - 1) / 32.0)));
    }

    void paletteEndpoints() {
        QCOMPARE(ColorScale::palette(0.0), QColor(0x44, 0x01, 0x54));
        QCOMPARE(ColorScale::palette(1.0), QColor(0xfd, 0xe7, 0x25));
        QCOMPARE(ColorScale::palette(-3.0), ColorScale::palette(0.0));
        QCOMPARE(ColorScale::palette(7.0), ColorScale::palette(1.0));
        QVERIFY(ColorScale::palette_distance(ColorScale::palette(0.37)) < 1.0);  // 8-bit rounding
        QVERIFY(ColorScale::palette_distance(QColor(208, 208, 208)) > 60);       // the infeasible grey
        QVERIFY(ColorScale::palette_distance(QColor(140, 140, 140)) > 40);       // and its hatch
    }

    void scaleIgnoresNaN() {
        const std::vector<double> v{nan_v, 3.0, 1.0, nan_v, std::numeric_limits<double>::infinity()};
        const ColorScale s(v, true);
        QVERIFY(!s.empty());
        QCOMPARE(s.min(), 1.0);
        QCOMPARE(s.max(), 3.0);
        QVERIFY(std::isnan(s.normalized(nan_v)));
        QVERIFY(!s.color(nan_v).isValid());
        QCOMPARE(s.normalized(2.0), 0.5);
        QCOMPARE(s.normalized(-5.0), 0.0);  // clamped
        const std::vector<double> none{nan_v, nan_v};
        const ColorScale empty(none, true);
        QVERIFY(empty.empty());
        QVERIFY(!empty.color(1.0).isValid());
        QVERIFY(empty.ticks(5).empty());
    }

    void scaleWithOneValue() {
        const std::vector<double> v{2.5, 2.5};
        const ColorScale s(v, false);
        QCOMPARE(s.normalized(2.5), 0.5);
        QVERIFY(s.color(2.5).isValid());
        QCOMPARE(s.ticks(6), std::vector<double>{2.5});
    }

    void brightEndIsAlwaysBetter() {
        const std::vector<double> v{1.0, 2.0, 3.0};
        const ColorScale higher(v, true);
        QCOMPARE(higher.color(3.0), ColorScale::palette(1.0));
        QCOMPARE(higher.color(1.0), ColorScale::palette(0.0));
        const ColorScale lower(v, false);
        QCOMPARE(lower.color(1.0), ColorScale::palette(1.0));
        QCOMPARE(lower.color(3.0), ColorScale::palette(0.0));
        QCOMPARE(lower.color_at(0.0), lower.color(1.0));  // the bar's bottom is the minimum either way
        QVERIFY(luma(lower.color(1.5)) > luma(lower.color(2.5)));
    }

    void logScaleDetection_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<bool>("log");
        QTest::newRow("one decade") << 1.0 << 10.0 << false;
        QTest::newRow("1.49 decades") << 1.0 << 31.0 << false;
        QTest::newRow("1.51 decades") << 1.0 << 32.5 << true;
        QTest::newRow("three decades") << 0.5 << 500.0 << true;
        QTest::newRow("zero") << 0.0 << 1000.0 << false;
        QTest::newRow("negative") << -1.0 << 1000.0 << false;
    }
    void logScaleDetection() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(bool, log);
        const std::vector<double> v{lo, nan_v, hi};
        const ColorScale s(v, true);
        QCOMPARE(s.log(), log);
        if (log) QCOMPARE(s.normalized(std::sqrt(lo * hi)), 0.5);  // the geometric middle
    }

    void ticksAreRoundAndInside_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("hi");
        QTest::addColumn<int>("max_count");
        QTest::newRow("0..1") << 0.0 << 1.0 << 6;
        QTest::newRow("1.23..4.56 s") << 1.23 << 4.56 << 5;
        QTest::newRow("31..47 %") << 31.0 << 47.0 << 8;
        QTest::newRow("log 1..1000") << 1.0 << 1000.0 << 5;
        QTest::newRow("log 0.02..90") << 0.02 << 90.0 << 12;
        QTest::newRow("log 1e3..1e9 few") << 1e3 << 1e9 << 3;
        QTest::newRow("two ticks") << 0.0 << 7.0 << 2;
    }
    void ticksAreRoundAndInside() {
        QFETCH(double, lo);
        QFETCH(double, hi);
        QFETCH(int, max_count);
        const std::vector<double> v{lo, hi};
        const ColorScale s(v, true);
        const std::vector<double> t = s.ticks(max_count);
        QVERIFY(!t.empty());
        QVERIFY(static_cast<int>(t.size()) <= max_count);
        for (std::size_t i = 0; i < t.size(); ++i) {
            QVERIFY(t[i] >= lo * (1 - 1e-9) - 1e-12 && t[i] <= hi * (1 + 1e-9));
            if (i > 0) QVERIFY(t[i] > t[i - 1]);
            const double mantissa = t[i] / std::pow(10.0, std::floor(std::log10(std::abs(t[i]) + 1e-300)));
            QVERIFY2(t[i] == 0 || std::abs(mantissa * 4 - std::round(mantissa * 4)) < 1e-6, qPrintable(QString::number(t[i])));
        }
    }

    void colourBarLabelsDropSharedZeros() {
        std::vector<QString> a{QStringLiteral("63.00 s"), QStringLiteral("64.50 s")};
        trim_common_zeros(a);
        QCOMPARE(a, (std::vector<QString>{QStringLiteral("63.0 s"), QStringLiteral("64.5 s")}));
        std::vector<QString> b{QStringLiteral("90.00 s"), QStringLiteral("120 s")};
        trim_common_zeros(b);
        QCOMPARE(b, (std::vector<QString>{QStringLiteral("90 s"), QStringLiteral("120 s")}));
        std::vector<QString> c{QStringLiteral("1.0 %"), QStringLiteral("2.5 %")};
        trim_common_zeros(c);
        QCOMPARE(c, (std::vector<QString>{QStringLiteral("1.0 %"), QStringLiteral("2.5 %")}));
    }

    // ---- make_heatmap_data ----
    void bestCellFollowsTheMetricDirection() {
        const HandSweep h = hand_sweep();
        const HeatmapData time = make_heatmap_data(h.spec, h.result, Metric::iteration_time, CellIndex{0, 0});
        QCOMPARE(time.best, std::optional<CellIndex>(CellIndex{2, 1}));
        QCOMPARE(time.current, std::optional<CellIndex>(CellIndex{0, 0}));
        QCOMPARE(time.at(2, 1).value, 1.5);
        const HeatmapData tokens = make_heatmap_data(h.spec, h.result, Metric::tokens_per_s, std::nullopt);
        QCOMPARE(tokens.best, std::optional<CellIndex>(CellIndex{0, 1}));
        QVERIFY(!tokens.current);
        const HeatmapData outside = make_heatmap_data(h.spec, h.result, Metric::mfu, CellIndex{3, 0});
        QVERIFY(!outside.current);
    }

    // Throughput counts the workload's items: a DLRM sweep's cells, tooltips and summary say
    // samples/s, a transformer's tokens/s.
    void throughputSpeaksTheWorkloadsItems() {
        HandSweep h = hand_sweep();
        QCOMPARE(format_metric(2.5e6, Metric::tokens_per_s), QStringLiteral("2.50 M tokens/s"));
        QCOMPARE(format_metric(2.5e6, Metric::tokens_per_s, Workload::dlrm), QStringLiteral("2.50 M samples/s"));
        QCOMPARE(format_metric(2500, Metric::tokens_per_s, Workload::dlrm), QStringLiteral("2.5 k samples/s"));
        QCOMPARE(format_metric(25, Metric::tokens_per_s, Workload::dlrm), QStringLiteral("25 samples/s"));
        const HeatmapData tokens = make_heatmap_data(h.spec, h.result, Metric::tokens_per_s, std::nullopt);
        QCOMPARE(tokens.workload, Workload::transformer);
        QVERIFY(tokens.at(0, 1).tooltip.contains(QStringLiteral("tokens/s")));
        h.result.workload = Workload::dlrm;
        const HeatmapData samples = make_heatmap_data(h.spec, h.result, Metric::tokens_per_s, std::nullopt);
        QCOMPARE(samples.workload, Workload::dlrm);
        QVERIFY2(samples.at(0, 1).tooltip.contains(QStringLiteral("samples/s")), qPrintable(samples.at(0, 1).tooltip));
        QVERIFY(!samples.at(0, 1).tooltip.contains(QStringLiteral("tokens")));
    }

    // Colour by cost per M tokens and by time to train (issue 40, item 8): each cell priced by
    // core's cost_report() with its axis values and strategy on the configuration and the
    // scenario's prices, as the Cost page prices; a cell on more GPUs costs more per token than
    // its time alone says; no price or no token budget: no value, and the reason says which.
    // The difference view: each cell's change against the current cell's value, in the metric's
    // direction; the best cell stays the best; without a baseline no cell has a value and the map
    // says why.
    // The categorical map (issue 40, item 8): each feasible cell coloured by the family of its
    // best strategy (the parallel dimensions it uses), the families most cells first, the star on
    // the fastest cell; the difference view leaves it alone; the colours are distinct.
    void strategyFamilyMapNamesWhatWinsWhere() {
        Strategy s;
        QCOMPARE(strategy_family(s, Workload::transformer), QStringLiteral("One GPU"));
        s.tp = 8;
        s.pp = 4;
        s.dp = 2;
        QCOMPARE(strategy_family(s, Workload::transformer), QStringLiteral("TP+PP+DP"));
        s.zero_stage = 3;
        QCOMPARE(strategy_family(s, Workload::transformer), QStringLiteral("TP+PP+FSDP"));
        Strategy moe;
        moe.ep = 8;
        moe.cp = 2;
        moe.dp = 8;
        QCOMPARE(strategy_family(moe, Workload::transformer), QStringLiteral("CP+EP+DP"));
        Strategy dlrm;
        dlrm.emb_placement = EmbeddingPlacement::expanded;
        QCOMPARE(strategy_family(dlrm, Workload::dlrm), QStringLiteral("Tables in expanded memory"));

        HandSweep h = hand_sweep();  // tp8 pp4 everywhere; make the bottom row FSDP and one cell TP only
        for (int ix = 0; ix < 3; ++ix) {
            Strategy& st = h.result.cells[static_cast<std::size_t>(ix)].strategy;
            st = Strategy{};
            st.dp = 64;
            st.zero_stage = 3;
        }
        h.result.cells[5].strategy = Strategy{};
        h.result.cells[5].strategy.tp = 8;
        HeatmapData d = make_heatmap_data(h.spec, h.result, Metric::strategy_family, CellIndex{0, 1});
        // Feasible cells: FSDP 2 (one bottom cell cannot run), TP+PP 2, TP 1.
        QCOMPARE(d.categories, (std::vector<QString>{QStringLiteral("FSDP"), QStringLiteral("TP+PP"), QStringLiteral("TP")}));
        QCOMPARE(d.at(0, 0).value, 0.0);
        QVERIFY(std::isnan(d.at(1, 0).value));  // cannot run: no family
        QVERIFY(!d.at(1, 0).reason.isEmpty());
        QCOMPARE(d.at(0, 1).value, 1.0);
        QCOMPARE(d.at(2, 1).value, 2.0);
        QCOMPARE(format_heatmap_value(d, d.at(2, 1).value), QStringLiteral("TP"));
        QVERIFY2(d.at(2, 1).tooltip.contains(QStringLiteral("Strategy family: TP")), qPrintable(d.at(2, 1).tooltip));
        QVERIFY(d.best.has_value());
        QCOMPARE(*d.best, (CellIndex{2, 1}));  // 1.5 s, the fastest cell
        const QString summary = summarize(d);
        QVERIFY2(summary.contains(QStringLiteral("Cells per family: FSDP 2, TP+PP 2, TP 1.")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Fastest: TP at ")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("better")), qPrintable(summary));
        // The difference view compares numbers: a family map stays a family map.
        HeatmapData rel = d;
        make_relative(rel);
        QVERIFY(!rel.relative);
        QCOMPARE(rel.at(2, 1).value, 2.0);
        QVERIFY(rel.note.isEmpty());
        // The colours: one per family, distinct, and the bar's ticks are the families.
        const ColorScale scale = ColorScale::categorical(3);
        QCOMPARE(scale.categories(), 3);
        QCOMPARE(scale.ticks(2).size(), std::size_t{3});
        QVERIFY(scale.color(0) != scale.color(1) && scale.color(1) != scale.color(2) && scale.color(0) != scale.color(2));
        QCOMPARE(scale.color(2), scale.color_at(0.9));
        HeatmapWidget w;
        w.resize(900, 600);
        w.setData(d);
        QCOMPARE(w.exportTitle().left(15), QStringLiteral("Strategy family"));
        const QImage img = w.grab().toImage();
        const HeatmapGeometry g = w.layoutFor(QSizeF(w.size()));
        QCOMPARE(img.pixelColor(g.cell_rect(CellIndex{2, 0}).center().toPoint()), ColorScale::category_color(0));  // no marker there

        // More than 8 families: the least common become "Other".
        HandSweep many = hand_sweep();
        many.spec.x = Axis{Knob::hbm_gbps, {1000, 2000, 3000, 4000, 5000}};
        many.result.nx = 5;
        many.result.ny = 2;
        many.result.cells.clear();
        const int tps[10][4] = {{1, 1, 1, 2}, {2, 1, 1, 2}, {1, 2, 1, 2}, {1, 1, 2, 2}, {2, 2, 1, 2},
                                {2, 1, 2, 2}, {1, 2, 2, 2}, {2, 2, 2, 2}, {2, 2, 2, 1}, {1, 1, 1, 1}};
        for (int i = 0; i < 10; ++i) {
            SweepCell c;
            c.strategy.tp = tps[i][0];
            c.strategy.pp = tps[i][1];
            c.strategy.cp = tps[i][2];
            c.strategy.dp = tps[i][3];
            c.evaluated = 1;
            c.result = feasible_result(1.0 + i, 1e5);
            many.result.cells.push_back(c);
        }
        const HeatmapData m = make_heatmap_data(many.spec, many.result, Metric::strategy_family, std::nullopt);
        QCOMPARE(m.categories.size(), std::size_t{8});
        QCOMPARE(m.categories.back(), QStringLiteral("Other"));
        int other = 0;
        for (const HeatmapCell& c : m.cells) other += c.value == 7.0 ? 1 : 0;
        QCOMPARE(other, 3);  // 10 families in 10 cells: 7 named, 3 other
    }

    void differenceViewIsTheChangeAgainstTheCurrentCell() {
        const HandSweep h = hand_sweep();
        const CellIndex current{0, 1};  // 3.5 s, 9e5 tokens/s
        for (const Metric m : {Metric::iteration_time, Metric::tokens_per_s}) {
            const HeatmapData plain = make_heatmap_data(h.spec, h.result, m, current);
            HeatmapData d = plain;
            make_relative(d);
            QVERIFY(d.relative);
            const double base = plain.at(0, 1).value;
            QCOMPARE(d.baseline, base);
            QCOMPARE(d.at(0, 1).value, 0.0);
            for (int iy = 0; iy < 2; ++iy)
                for (int ix = 0; ix < 3; ++ix) {
                    const HeatmapCell& was = plain.at(ix, iy);
                    const HeatmapCell& now = d.at(ix, iy);
                    if (!std::isfinite(was.value)) {
                        QVERIFY(std::isnan(now.value));
                        QCOMPARE(now.reason, was.reason);  // an infeasible cell keeps its own reason
                        continue;
                    }
                    QCOMPARE(now.value, was.value / base - 1.0);
                    QVERIFY2(now.tooltip.contains(QStringLiteral("Change vs the current cell: ") + signed_percent(now.value, 1)),
                             qPrintable(now.tooltip));
                }
            QCOMPARE(d.best, plain.best);
            QVERIFY(d.best.has_value());
        }
        HeatmapData time = make_heatmap_data(h.spec, h.result, Metric::iteration_time, current);
        make_relative(time);
        // 1.5 s against 3.5 s: 57.1 % less time, the bright end of a lower-is-better map.
        QCOMPARE(format_heatmap_value(time, time.at(2, 1).value), with_minus_sign(QStringLiteral("-57.1 %")));
        QCOMPARE(heatmap_value_label(time), QStringLiteral("Iteration time vs the current cell"));
        const QString summary = summarize(time);
        QVERIFY2(summary.startsWith(QStringLiteral("Iteration time vs the current cell by ")), qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Best: ") + with_minus_sign(QStringLiteral("-57.1 %"))), qPrintable(summary));
        HeatmapWidget w;
        w.resize(900, 600);
        w.setData(time);
        QCOMPARE(w.exportTitle().left(34), QStringLiteral("Iteration time vs the current cell"));

        // No baseline: off the grid, or on a cell that cannot run.
        HeatmapData off = make_heatmap_data(h.spec, h.result, Metric::iteration_time, std::nullopt);
        make_relative(off);
        QVERIFY(!off.best.has_value());
        QVERIFY2(off.note.contains(QStringLiteral("not on this grid")), qPrintable(off.note));
        for (const HeatmapCell& c : off.cells) {
            QVERIFY(std::isnan(c.value));
            QVERIFY(!c.reason.isEmpty());
        }
        HeatmapData stuck = make_heatmap_data(h.spec, h.result, Metric::iteration_time, CellIndex{1, 0});
        const QString why = stuck.at(1, 0).reason;
        QVERIFY(!why.isEmpty());
        make_relative(stuck);
        QVERIFY2(stuck.note.contains(why), qPrintable(stuck.note));
        QVERIFY(summarize(stuck).contains(stuck.note));
    }

    void costMetricsPriceEachCellAsTheCostPageDoes() {
        HandSweep h = hand_sweep();
        h.spec.y = Axis{Knob::nodes, {4, 16}};
        for (std::size_t iy = 0; iy < 2; ++iy)
            for (std::size_t ix = 0; ix < 3; ++ix) {
                SweepCell& c = h.result.cells[iy * 3 + ix];
                c.y = h.spec.y->values[iy];
                c.strategy.dp = iy == 0 ? 1 : 4;  // 32 or 128 GPUs
            }
        HeatmapCost cost;
        cost.config.workload = Workload::transformer;
        cost.config.model.seq_len = 4096;
        cost.config.training.global_batch = 512;
        cost.config.node.accelerators = 8;
        cost.config.node.power_kw = 10.2;
        cost.inputs.price_per_gpu_hour_usd = 2.49;
        cost.inputs.tokens_to_train = 15e12;
        for (const Metric m : {Metric::cost_per_million_tokens, Metric::time_to_train}) {
            const HeatmapData d = make_heatmap_data(h.spec, h.result, m, std::nullopt, &cost);
            for (int iy = 0; iy < 2; ++iy)
                for (int ix = 0; ix < 3; ++ix) {
                    const SweepCell& cell = h.result.at(ix, iy);
                    if (!cell.result.feasible) {
                        QVERIFY(std::isnan(d.at(ix, iy).value));
                        continue;
                    }
                    Config c = cost.config;
                    c.cluster.nodes = static_cast<int>(cell.y);
                    c.strategy = cell.strategy;
                    const CostReport report = cost_report(c, cell.result, cost.inputs);
                    QVERIFY(report.valid);
                    const double expected = m == Metric::time_to_train ? report.time_to_train_s : report.cost_per_million_tokens_usd;
                    QVERIFY(expected > 0);
                    QCOMPARE(d.at(ix, iy).value, expected);
                    QVERIFY2(d.at(ix, iy).tooltip.contains(metric_info(m).label + QStringLiteral(": ") + format_metric(expected, m)),
                             qPrintable(d.at(ix, iy).tooltip));
                }
            // Every GPU is priced: the fastest cell (2, 1) runs on 128 GPUs; per token the
            // cheapest is a cell on 32. Time to train follows the iteration time.
            if (m == Metric::cost_per_million_tokens)
                QCOMPARE(d.best, std::optional<CellIndex>(CellIndex{2, 0}));
            else
                QCOMPARE(d.best, std::optional<CellIndex>(CellIndex{2, 1}));
        }
        QCOMPARE(format_metric(4.123, Metric::cost_per_million_tokens), QStringLiteral("$4.12"));
        QCOMPARE(format_metric(37.52 * 86400, Metric::time_to_train), QStringLiteral("37.52 days"));

        // No token budget, no price, no prices at all: no value in any cell, and why.
        HeatmapCost no_budget = cost;
        no_budget.inputs.tokens_to_train = 0;
        const HeatmapData t = make_heatmap_data(h.spec, h.result, Metric::time_to_train, std::nullopt, &no_budget);
        QVERIFY(std::isnan(t.at(0, 0).value));
        QVERIFY2(t.at(0, 0).reason.contains(QStringLiteral("no token budget")), qPrintable(t.at(0, 0).reason));
        QVERIFY(!t.best);
        QVERIFY2(t.note.startsWith(QStringLiteral("No token budget")), qPrintable(t.note));  // drawn over the cells
        QVERIFY2(summarize(t).contains(t.note), qPrintable(summarize(t)));
        QVERIFY(make_heatmap_data(h.spec, h.result, Metric::time_to_train, std::nullopt, &cost).note.isEmpty());
        HeatmapCost free = cost;
        free.inputs.price_per_gpu_hour_usd = 0;
        free.inputs.purchase_price_per_gpu_usd = 0;
        free.inputs.price_per_kwh_usd = 0;
        const HeatmapData f = make_heatmap_data(h.spec, h.result, Metric::cost_per_million_tokens, std::nullopt, &free);
        QVERIFY(std::isnan(f.at(0, 0).value));
        QVERIFY2(f.at(0, 0).reason.contains(QStringLiteral("no price")), qPrintable(f.at(0, 0).reason));
        QVERIFY2(f.note.startsWith(QStringLiteral("No price")), qPrintable(f.note));
        const HeatmapData none = make_heatmap_data(h.spec, h.result, Metric::cost_per_million_tokens, std::nullopt);
        QVERIFY(std::isnan(none.at(2, 1).value));
        QVERIFY(!none.at(2, 1).reason.isEmpty());
        // The infeasible cell keeps its own reason under a cost metric.
        QVERIFY2(none.at(1, 0).reason.contains(QStringLiteral("does not fit in HBM")), qPrintable(none.at(1, 0).reason));
    }

    void infeasibleCellsAreNaNWithAReason() {
        const HandSweep h = hand_sweep();
        const HeatmapData d = make_heatmap_data(h.spec, h.result, Metric::iteration_time, std::nullopt);
        const HeatmapCell& bad = d.at(1, 0);
        QVERIFY(std::isnan(bad.value));
        QVERIFY(!bad.feasible);
        QVERIFY2(bad.reason.contains(QStringLiteral("does not fit in HBM")), qPrintable(bad.reason));
        QVERIFY(bad.tooltip.contains(bad.reason));
        QVERIFY(d.at(0, 0).reason.isEmpty());
        // HBM use is meaningful when it does not fit: a value, still infeasible, never the best.
        const HeatmapData hbm = make_heatmap_data(h.spec, h.result, Metric::hbm_use, std::nullopt);
        QCOMPARE(std::round(hbm.at(1, 0).value * 10) / 10, 93.2);
        QVERIFY(!hbm.at(1, 0).feasible);
        QVERIFY(hbm.best && !(*hbm.best == CellIndex{1, 0}));
    }

    // Cells of models and strategies with experts or context parallelism list those exposed parts
    // too, and they count as exposed communication; other cells do not list them.
    void tooltipsListExpertAndContextParts() {
        HandSweep h = hand_sweep();
        Result& moe = h.result.cells[2].result;  // (2, 0): 3 s
        moe.time.dp_comm_s = 0.3;
        moe.time.ep_comm_s = 0.2;
        moe.time.cp_comm_s = 0.1;
        const HeatmapData d = make_heatmap_data(h.spec, h.result, Metric::iteration_time, std::nullopt);
        const QString tip = d.at(2, 0).tooltip;
        QVERIFY2(tip.contains(QLatin1String("Exposed EP all-to-all: 200.00 ms (6.7 %)")), qPrintable(tip));
        QVERIFY2(tip.contains(QLatin1String("Exposed CP ring exchange: 100.00 ms (3.3 %)")), qPrintable(tip));
        QVERIFY(!d.at(0, 0).tooltip.contains(QLatin1String("EP all-to-all")));
        QVERIFY(!d.at(0, 0).tooltip.contains(QLatin1String("CP ring")));
        QCOMPARE(metric_value(moe, Metric::exposed_comm_share), 100.0 * 0.6 / 3.0);
    }

    // Sweep axes of the new knobs: parallel degrees that can divide, the sharding groups of dp x cp,
    // and the overlap fractions.
    void axisDefaultsOfExpertAndContextKnobs() {
        Config moe = test::moe_config();  // 64 GPUs, 8 experts, dp 16 x cp 2, NVLink domain of 8
        Config dense = moe;
        dense.model.experts = 0;
        dense.strategy.ep = 1;
        const auto values = [](Knob k, const Config& c) { return default_axis(k, c, 9).values; };
        QCOMPARE(values(Knob::cp, moe), (std::vector<double>{1, 2, 4, 8, 16, 32, 64}));
        QCOMPARE(values(Knob::ep, moe), (std::vector<double>{1, 2, 4, 8}));
        QCOMPARE(values(Knob::ep, dense), (std::vector<double>{1}));
        moe.model.experts = 160;
        QCOMPARE(values(Knob::ep, moe), (std::vector<double>{1, 2, 4, 8, 16, 32}));  // 160 > 64 GPUs
        moe.cluster.nodes = 64;
        QCOMPARE(values(Knob::ep, moe), (std::vector<double>{1, 2, 4, 8, 16, 32, 160}));
        QCOMPARE(values(Knob::etp, moe), (std::vector<double>{1, 2, 4, 8}));
        QCOMPARE(values(Knob::zero_shard, moe), (std::vector<double>{0, 1, 2, 4, 8, 16}));
        QCOMPARE(values(Knob::ep_overlap, moe), (std::vector<double>{0, 0.25, 0.5, 0.75, 0.9, 1}));
        moe.strategy.ep_overlap = 0.6;
        QCOMPARE(values(Knob::ep_overlap, moe), (std::vector<double>{0, 0.25, 0.5, 0.6, 0.75, 0.9, 1}));
    }

    // A user's axis range (issue 40 item 8): geometric values over it for a continuous knob,
    // the powers of two in it for a degree or a count, the listed values in it otherwise; a
    // range that cannot be used says why and leaves the automatic axis.
    void rangedAxisFollowsTheUsersRange() {
        Config c = test::moe_config();  // 64 GPUs, 8 nodes
        const Axis hbm = ranged_axis(Knob::hbm_gbps, c, 9, {1000, 8000});
        QCOMPARE(hbm.values.size(), std::size_t{9});
        QCOMPARE(hbm.values.front(), 1000.0);
        QCOMPARE(hbm.values.back(), 8000.0);
        QVERIFY(is_geometric(hbm.values));
        QCOMPARE(ranged_axis(Knob::nodes, c, 9, {16, 1024}).values, (std::vector<double>{16, 32, 64, 128, 256, 512, 1024}));
        // The current value stays on the axis where it lies inside the range: 8 nodes between 3 and 40.
        QCOMPARE(ranged_axis(Knob::nodes, c, 9, {3, 40}).values, (std::vector<double>{4, 8, 16, 32}));
        c.cluster.nodes = 6;
        QCOMPARE(ranged_axis(Knob::nodes, c, 9, {3, 40}).values, (std::vector<double>{4, 6, 8, 16, 32}));
        QCOMPARE(ranged_axis(Knob::ep_overlap, c, 9, {0.25, 0.9}).values, (std::vector<double>{0.25, 0.5, 0.75, 0.9}));
        QCOMPARE(ranged_axis(Knob::tp, c, 9, {2, 8}).values, (std::vector<double>{2, 4, 8}));

        const std::vector<std::pair<AxisRange, std::string>> bad{
            {{8000, 1000}, "'from' must be below 'to'"},
            {{1000, 1000}, "'from' must be below 'to'"},
            {{std::nan(""), 1000}, "both ends must be finite"},
            {{1000, std::numeric_limits<double>::infinity()}, "both ends must be finite"},
            {{-5, -1}, "outside the knob's values"},
            {{0, 100}, "a geometric axis needs 'from' above 0"},
        };
        const Axis automatic = default_axis(Knob::hbm_gbps, c, 9);
        for (const auto& [range, why] : bad) {
            const std::string got = range_problem(Knob::hbm_gbps, range);
            QVERIFY2(got.find(why) != std::string::npos, got.c_str());
            QVERIFY2(got.rfind("HBM bandwidth (hbm_gbps) [", 0) == 0, got.c_str());  // names the knob and the values
            QCOMPARE(ranged_axis(Knob::hbm_gbps, c, 9, range).values, automatic.values);
        }
        QVERIFY(range_problem(Knob::sequence_parallel, {0, 1}).find("has no range") != std::string::npos);
        QVERIFY(range_problem(Knob::hbm_gbps, {1000, 8000}).empty());
        // A range in which no value of a list falls leaves the automatic axis.
        QCOMPARE(ranged_axis(Knob::ep_overlap, c, 9, {0.3, 0.4}).values, default_axis(Knob::ep_overlap, c, 9).values);

        const SweepSpec spec = sweep_around(c, Knob::hbm_gbps, Knob::nodes, 9, true, AxisRange{1000, 8000}, std::nullopt);
        QCOMPARE(spec.x.values, hbm.values);
        QVERIFY(spec.y.has_value());
        QCOMPARE(spec.y->values, default_axis(Knob::nodes, c, 9).values);
    }

    void labelsTooltipsAndSpacing() {
        const HandSweep h = hand_sweep();
        const HeatmapData d = make_heatmap_data(h.spec, h.result, Metric::iteration_time, std::nullopt);
        QCOMPARE(d.x_label, QStringLiteral("HBM bandwidth (GB/s)"));
        QCOMPARE(d.y_label, QStringLiteral("Scale-out bandwidth (GB/s)"));
        QCOMPARE(d.nx, 3);
        QCOMPARE(d.ny, 2);
        QCOMPARE(d.x_values, (std::vector<double>{1000, 2000, 4000}));
        QVERIFY(d.x_log);
        QVERIFY(!d.y_log);  // two values say nothing about spacing
        const QString tip = d.at(2, 1).tooltip;
        for (const char* part : {"HBM bandwidth: 4000 GB/s", "Scale-out bandwidth: 25 GB/s", "Iteration time: 1.500 s", "Strategy: tp8 pp4",
                                 "Compute: 900.00 ms (60.0 %)", "Pipeline bubble", "Exposed TP comm", "Exposed PP comm",
                                 "Exposed DP comm: 300.00 ms", "Exposed memory", "Optimizer step", "Other", "HBM: 40.0 of 80.0 GiB"})
            QVERIFY2(tip.contains(QLatin1String(part)), qPrintable(QStringLiteral("%1 missing in:\n%2").arg(QLatin1String(part), tip)));
        QVERIFY(summarize(d).contains(QStringLiteral("Best: 1.500 s at HBM bandwidth (GB/s) 4000")));
    }

    void oneDimensionalAndCancelledSweeps() {
        HandSweep h = hand_sweep();
        h.spec.y.reset();
        h.result.ny = 1;
        h.result.cells.resize(3);
        h.result.cancelled = true;
        h.result.cells[2] = SweepCell{};  // never reached
        const HeatmapData d = make_heatmap_data(h.spec, h.result, Metric::iteration_time, std::nullopt);
        QCOMPARE(d.ny, 1);
        QCOMPARE(d.y_values.size(), std::size_t{1});
        QVERIFY(d.y_label.isEmpty());
        QVERIFY(std::isnan(d.at(2, 0).value));
        QVERIFY(d.at(2, 0).reason.contains(QStringLiteral("cancelled")));
        QCOMPARE(d.best, std::optional<CellIndex>(CellIndex{0, 0}));
    }

    void axisFormatting() {
        QCOMPARE(format_axis_value(6.25), QStringLiteral("6.25"));
        QCOMPARE(format_axis_value(12.5), QStringLiteral("12.5"));
        QCOMPARE(format_axis_value(8.40896), QStringLiteral("8.41"));
        QCOMPARE(format_axis_value(1189.207), QStringLiteral("1189"));
        QCOMPARE(format_axis_value(131072), QStringLiteral("131072"));
        QCOMPARE(format_axis_value(0.125), QStringLiteral("0.125"));
        QCOMPARE(format_axis_value(8), QStringLiteral("8"));
        QCOMPARE(axis_title(Knob::tp), QStringLiteral("Tensor parallelism"));
        QVERIFY(is_geometric(log_values(6.25, 100, 32)));
        QVERIFY(!is_geometric(linear_values(1000, 8000, 8)));
        const std::vector<double> rounded{1000, 1189, 1414, 1682, 2000};
        QVERIFY(is_geometric(rounded));
    }

    // ---- widget ----
    void feasibleCellShowsTheScaleColour() {
        HeatmapWidget w;
        w.setData(test::small_heatmap());
        w.resize(900, 600);
        const QImage img = w.grab().toImage();
        const HeatmapGeometry g = w.layoutFor(QSizeF(w.size()));
        for (CellIndex c : {CellIndex{2, 0}, CellIndex{0, 2}, CellIndex{3, 1}}) {
            const QColor expected = w.colorScale().color(w.data().at(c.ix, c.iy).value);
            QCOMPARE(img.pixelColor(g.cell_rect(c).center().toPoint()), expected);
        }
        // Lower is better: the fastest cell is the brightest.
        QVERIFY(luma(img.pixelColor(g.cell_rect({3, 1}).center().toPoint())) >
                luma(img.pixelColor(g.cell_rect({2, 0}).center().toPoint())));
    }

    void infeasibleCellIsGreyHatched() {
        HeatmapWidget w;
        w.setData(test::small_heatmap());
        w.resize(900, 600);
        const QImage img = w.grab().toImage();
        const QRect r = w.layoutFor(QSizeF(w.size())).cell_rect({1, 1}).toRect().adjusted(3, 3, -3, -3);
        std::set<QRgb> seen;
        for (int y = r.top(); y <= r.bottom(); ++y) {
            for (int x = r.left(); x <= r.right(); ++x) {
                const QColor c = img.pixelColor(x, y);
                QVERIFY2(is_grey(c), qPrintable(c.name()));
                QVERIFY(ColorScale::palette_distance(c) > 40);
                seen.insert(c.rgb());
            }
        }
        QVERIFY(seen.size() >= 2);  // fill and hatch lines
    }

    void clicksAndHoverReportTheCell() {
        HeatmapWidget w;
        w.setData(test::small_heatmap());
        w.resize(900, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        const HeatmapGeometry g = w.layoutFor(QSizeF(w.size()));
        QSignalSpy clicked(&w, &HeatmapWidget::cellClicked);
        QSignalSpy pinned(&w, &HeatmapWidget::cellPinned);
        QSignalSpy hovered(&w, &HeatmapWidget::cellHovered);

        QTest::mouseMove(&w, g.cell_rect({1, 2}).center().toPoint());
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).value<CellIndex>(), (CellIndex{1, 2}));

        QTest::mouseClick(&w, Qt::LeftButton, {}, g.cell_rect({2, 1}).center().toPoint());
        QCOMPARE(clicked.count(), 1);
        QCOMPARE(clicked.takeFirst().at(0).value<CellIndex>(), (CellIndex{2, 1}));
        QCOMPARE(w.selectedCell(), std::optional<CellIndex>(CellIndex{2, 1}));
        QVERIFY(pinned.isEmpty());

        QTest::mouseClick(&w, Qt::RightButton, {}, g.cell_rect({3, 0}).center().toPoint());
        QTest::mouseClick(&w, Qt::LeftButton, Qt::ControlModifier, g.cell_rect({0, 2}).center().toPoint());
        QCOMPARE(pinned.count(), 2);
        QCOMPARE(pinned.at(0).at(0).value<CellIndex>(), (CellIndex{3, 0}));
        QCOMPARE(pinned.at(1).at(0).value<CellIndex>(), (CellIndex{0, 2}));
        QVERIFY(clicked.isEmpty());

        QTest::mouseClick(&w, Qt::LeftButton, {}, g.colorbar().center().toPoint());  // not a cell
        QVERIFY(clicked.isEmpty());
    }

    void arrowKeysMoveTheSelection() {
        HeatmapWidget w;
        w.setData(test::small_heatmap());
        w.resize(900, 600);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.setFocus();
        QSignalSpy clicked(&w, &HeatmapWidget::cellClicked);
        QSignalSpy pinned(&w, &HeatmapWidget::cellPinned);
        auto last = [&] { return clicked.last().at(0).value<CellIndex>(); };

        QTest::keyClick(&w, Qt::Key_Right);  // from the current cell (0, 0)
        QCOMPARE(last(), (CellIndex{1, 0}));
        QTest::keyClick(&w, Qt::Key_Up);
        QCOMPARE(last(), (CellIndex{1, 1}));
        QTest::keyClick(&w, Qt::Key_Up);
        QTest::keyClick(&w, Qt::Key_Up);  // already in the top row: nothing
        QCOMPARE(clicked.count(), 3);
        QCOMPARE(last(), (CellIndex{1, 2}));
        QTest::keyClick(&w, Qt::Key_Left);
        QTest::keyClick(&w, Qt::Key_Down);
        QCOMPARE(last(), (CellIndex{0, 1}));
        QCOMPARE(w.selectedCell(), std::optional<CellIndex>(CellIndex{0, 1}));
        QTest::keyClick(&w, Qt::Key_Return);
        QCOMPARE(pinned.count(), 1);
        QCOMPARE(pinned.last().at(0).value<CellIndex>(), (CellIndex{0, 1}));
        QVERIFY(w.accessibleDescription().contains(QStringLiteral("Selected: cell 0 1")));
    }

    void busyDimsTheMap() {
        HeatmapWidget w;
        w.setData(test::small_heatmap());
        w.resize(900, 600);
        const QPoint p = w.layoutFor(QSizeF(w.size())).cell_rect({0, 1}).center().toPoint();
        const QColor before = w.grab().toImage().pixelColor(p);
        w.setBusy(true);
        QVERIFY(w.isBusy());
        const QColor after = w.grab().toImage().pixelColor(p);
        QVERIFY(after != before);
        QVERIFY(luma(after) > luma(before));  // washed out towards the background
    }

    void accessibleTextSummarises() {
        HeatmapWidget w;
        w.setData(test::small_heatmap());
        QCOMPARE(w.accessibleName(), QStringLiteral("Heatmap: Iteration time"));
        const QString d = w.accessibleDescription();
        QVERIFY2(d.contains(QStringLiteral("4 by 3 configurations, 11 feasible, 1 infeasible")), qPrintable(d));
        QVERIFY2(d.contains(QStringLiteral("Values from 5.000 s to 10.000 s")), qPrintable(d));
        QVERIFY2(d.contains(QStringLiteral("Best: 5.000 s at HBM bandwidth (GB/s) 8000, Scale-out bandwidth (GB/s) 50")), qPrintable(d));
    }

    void smallGridsAndExport() {
        HeatmapWidget w;
        HeatmapData one;
        one.nx = 1;
        one.ny = 1;
        one.x_values = {8};
        one.y_values = {0};
        one.x_label = QStringLiteral("Tensor parallelism");
        one.cells = {HeatmapCell{2.0, {}, QStringLiteral("only"), true}};
        one.best = CellIndex{0, 0};
        w.setData(one);
        const QImage img = w.render_image(QSize(400, 300), 2.0);
        QCOMPARE(img.size(), QSize(800, 600));
        const QRectF cell = w.layoutFor(QSizeF(400, 300)).cell_rect({0, 0});
        QCOMPARE(img.pixelColor((cell.topLeft() + QPointF(3, 3)).toPoint() * 2), w.colorScale().color(2.0));

        w.setData(HeatmapData{});
        QVERIFY(!w.render_image(QSize(300, 200)).isNull());  // empty: a message, no crash

        w.setData(test::small_heatmap());
        w.resize(640, 420);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("heatmap.svg"));
        QVERIFY(w.render_svg(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QVERIFY(svg.contains("<svg"));
        QVERIFY(svg.contains("HBM bandwidth"));
    }
};

QTEST_MAIN(TestHeatmap)
#include "test_heatmap.moc"
