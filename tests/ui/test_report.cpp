// The PDF report (report/report.hpp): the data it is computed from (comparison, tornado, grid),
// then the PDF itself as poppler reads it (text, page count, metadata, rasterised pages), and
// failures that name the path and leave existing files alone.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <cmath>
#include <thread>

#include "comet/report.hpp"
#include "comet/scenario.hpp"
#include "comet/workload.hpp"
#include "heatmap/color_scale.hpp"
#include "common/validation_status.hpp"
#include "report/report.hpp"
#include "report/report_text.hpp"
#include "ui_fixtures.hpp"

using namespace comet;
using namespace comet::ui;
using comet::test::read_all;
using comet::test::run_tool;
using comet::test::write_file;

namespace {

Scenario load_preset_scenario(const char* file) {
    const QByteArray dir = qgetenv("COMET_PRESETS_DIR");
    if (dir.isEmpty()) qFatal("COMET_PRESETS_DIR is not set (the test registration sets it)");
    const Loaded<Scenario> loaded = load_scenario_file(std::string(dir.constData()) + "/scenarios/" + file);
    if (!loaded.ok()) qFatal("%s", loaded.error_text().c_str());
    return *loaded.value;
}

// pdftotext breaks table cells and long lines where the PDF wraps them, and keeps the font's
// ligatures ("ﬁ"): compare with single spaces and plain letters.
QString pdf_text(const QString& path) {
    return QString::fromUtf8(run_tool("pdftotext", {path, "-"})).simplified().replace(QChar(0xFB01), "fi").replace(QChar(0xFB02), "fl");
}

int pdf_pages(const QString& path) {
    const QString info = QString::fromUtf8(run_tool("pdfinfo", {path}));
    static const QRegularExpression pages(QStringLiteral("Pages:\\s+(\\d+)"));
    const QRegularExpressionMatch m = pages.match(info);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

int distinct_colors(const QImage& image) {
    QSet<QRgb> seen;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) seen.insert(image.pixel(x, y));
    return static_cast<int>(seen.size());
}

double non_white_share(const QImage& image) {
    qsizetype n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if ((image.pixel(x, y) & 0xFFFFFF) != 0xFFFFFF) ++n;
    return static_cast<double>(n) / (static_cast<double>(image.width()) * image.height());
}

// Pixels within `tolerance` (RGB distance) of `c`.
int pixels_near(const QImage& image, const QColor& c, double tolerance) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QRgb p = image.pixel(x, y);
            const double dr = qRed(p) - c.red(), dg = qGreen(p) - c.green(), db = qBlue(p) - c.blue();
            if (std::sqrt(dr * dr + dg * dg + db * db) <= tolerance) ++n;
        }
    return n;
}

QByteArray precious() { return QByteArrayLiteral("an earlier report the user wants to keep"); }

}  // namespace

class TestReport : public QObject {
    Q_OBJECT

    // Computed once: every test reads them (about half a second each).
    ReportData with_designs_;
    ReportData without_designs_;

private Q_SLOTS:
    void initTestCase() {
        with_designs_ = compute_report_data(load_preset_scenario("default.comet.json"), ReportOptions{});
        without_designs_ = compute_report_data(load_preset_scenario("llama3-70b-64xh100.comet.json"), ReportOptions{});
        QVERIFY(!with_designs_.cancelled);
        QVERIFY(!without_designs_.cancelled);
    }

    void theScenarioAsGivenAndItsBestStrategy() {
        const ReportData& d = with_designs_;
        QVERIFY(d.current.feasible);
        QVERIFY(d.best.has_value());
        QVERIFY(d.best->result.feasible);
        QVERIFY(d.best->result.iteration_s <= d.current.iteration_s);  // the given strategy is in the search space
        QVERIFY(d.cost.valid);
        QVERIFY(d.best_cost.valid);
        QVERIFY(d.cost.cost_per_million_tokens_usd > d.best_cost.cost_per_million_tokens_usd);
    }

    // The assumptions say how the scenario's hardware validates against published runs.
    void statesHowTheNodeValidates() {
        QVERIFY2(without_designs_.validation.startsWith("DGX H100: 18 published runs"), qPrintable(without_designs_.validation));
        Scenario s = without_designs_.scenario;
        s.config.node = find_node_preset("tpu-v5p")->node;
        ReportOptions o;
        o.with_grid = false;
        o.with_comparison = false;
        const ReportData d = compute_report_data(s, o);
        QVERIFY2(d.validation.contains("not validated"), qPrintable(d.validation));
        QTemporaryDir dir;
        const QString path = dir.filePath("v.pdf");
        QVERIFY(write_report_pdf(without_designs_, path).isEmpty());
        const QString text = pdf_text(path);
        QVERIFY2(text.contains("DGX H100: 18 published runs"), qPrintable(text));
        QVERIFY2(text.contains("Pipeline stages"), qPrintable(text));
        // And how its software does, over every hardware and on this node, with the sign.
        const QString sw = without_designs_.software_validation;
        QVERIFY2(sw.contains(QStringLiteral(" published runs, mean error ")) && sw.contains(QStringLiteral(", signed ")) &&
                     sw.contains(QStringLiteral(". On DGX H100: ")),
                 qPrintable(sw));
        QVERIFY2(text.contains("Software validation"), qPrintable(text));
        QVERIFY2(d.software_validation.endsWith(QStringLiteral(": no published run")), qPrintable(d.software_validation));
    }

    void comparesEveryDesignAgainstTheBaseline() {
        const Comparison& c = with_designs_.comparison;
        QCOMPARE(c.designs.size(), std::size_t{4});
        QVERIFY(!c.cancelled);
        const DesignOutcome& base = c.designs[static_cast<std::size_t>(c.baseline)];
        QVERIFY(base.result.feasible);
        for (const DesignOutcome& o : c.designs) {
            QVERIFY2(o.result.feasible, o.name.c_str());
            QVERIFY(qFuzzyCompare(o.speedup, base.result.iteration_s / o.result.iteration_s));
        }
        QCOMPARE(base.speedup, 1.0);
        QVERIFY(without_designs_.comparison.designs.empty());
        // The report numbers its designs as the Compare page does, from #1 (it said 0 and 1).
        const QString html = report::comparison_html(with_designs_);
        QRegularExpression row;  // one pattern per design
        for (std::size_t i = 0; i < c.designs.size(); ++i) {
            const QString mark = static_cast<int>(i) == c.baseline ? QStringLiteral("\\*") : QString();
            row.setPattern(QStringLiteral(">%1%2</td><td[^>]*>%3</td>")
                               .arg(QString::number(i + 1), mark,
                                    QRegularExpression::escape(QString::fromStdString(c.designs[i].name).toHtmlEscaped())));
            QVERIFY2(row.match(html).hasMatch(), qPrintable(row.pattern() + QStringLiteral(" not in ") + html));
        }
    }

    // Every answer carries its band (issue 40): the scenario's time and each design's, with the
    // node's and software's published runs, and the MFU flag where MFU is above all of them.
    void everyAnswerCarriesItsTrustBand() {
        const ReportData& d = with_designs_;
        QVERIFY(d.band.validated());
        QCOMPARE(d.design_bands.size(), d.comparison.designs.size());
        const QString result = report::result_html(d);
        QVERIFY2(result.contains(QStringLiteral("Likely range")), qPrintable(result));
        QVERIFY2(result.contains(ui::format_seconds(d.band.low * d.current.iteration_s)) &&
                     result.contains(ui::format_seconds(d.band.high * d.current.iteration_s)),
                 qPrintable(result));
        QVERIFY2(result.contains(ui::format_seconds(d.band.high * d.best->result.iteration_s)), qPrintable(result));
        QCOMPARE(result.contains(QStringLiteral("above every published run")),
                 d.band.mfu_above_published(d.current.mfu) || d.band.mfu_above_published(d.best->result.mfu));
        const QString html = report::comparison_html(d);
        QVERIFY(html.contains(QStringLiteral("Likely error")));
        for (std::size_t i = 0; i < d.design_bands.size(); ++i) {
            QVERIFY(d.design_bands[i].validated());
            QVERIFY2(html.contains(trust_range_text(d.design_bands[i]).toHtmlEscaped()), qPrintable(html));
        }
        // An unvalidated node says so instead of a band.
        Scenario s = without_designs_.scenario;
        s.config.node.hbm_bandwidth_gbps *= 1.5;  // edited: no preset
        s.software_info.name.clear();
        s.config.software.host_op_us += 1;  // edited too
        ReportOptions o;
        o.with_grid = false;
        o.with_comparison = false;
        const ReportData edited = compute_report_data(s, o);
        QVERIFY(!edited.band.validated());
        QVERIFY2(report::result_html(edited).contains(QStringLiteral("Not validated")), qPrintable(report::result_html(edited)));
    }

    // Which software change buys most (issue 38) is the core's, in the report's cost part.
    void softwareChangesAreTheCores() {
        const ReportData& d = with_designs_;
        SearchOptions one;
        one.top_k = 1;
        const std::vector<SoftwareChange> direct = software_changes(d.scenario.config, one);
        QVERIFY(!direct.empty());
        QCOMPARE(d.software.size(), direct.size());
        const QString html = report::cost_html(d);
        QVERIFY2(html.contains(QStringLiteral("Which software change buys most")), qPrintable(html));
        for (std::size_t i = 0; i < direct.size(); ++i) {
            QCOMPARE(d.software[i].what, direct[i].what);
            QCOMPARE(d.software[i].time_s, direct[i].time_s);
            QVERIFY2(html.contains(QString::fromStdString(direct[i].what).toHtmlEscaped()) &&
                         html.contains(ui::format_seconds(direct[i].time_s)),
                     qPrintable(html));
        }
    }

    void tornadoBarsAreSortedByEffect() {
        const std::vector<SensitivityBar>& bars = with_designs_.tornado;
        QVERIFY(bars.size() >= 7);
        for (std::size_t i = 1; i < bars.size(); ++i) QVERIFY2(bars[i - 1].effect_s >= bars[i].effect_s, qPrintable(QString::number(i)));
        QVERIFY(bars.front().effect_s > 0);
    }

    void gridIsStepsByStepsAroundTheScenario() {
        const ReportData& d = with_designs_;
        QCOMPARE(d.grid.nx, 17);
        QCOMPARE(d.grid.ny, 17);
        QCOMPARE(d.grid.cells.size(), std::size_t{17} * 17);
        QCOMPARE(d.spec.x.knob, Knob::hbm_gbps);
        QVERIFY(d.spec.y && d.spec.y->knob == Knob::scale_out_gbps);
        QVERIFY(d.spec.search);
        // The scenario's own values are on the grid, and that cell is its best strategy.
        const std::optional<CellIndex> here = cell_of(d.spec, d.scenario.config);
        QVERIFY(here.has_value());
        const double cell_s = d.grid.at(here->ix, here->iy).result.iteration_s;
        QVERIFY2(std::abs(cell_s - d.best->result.iteration_s) <= 1e-9 * cell_s, qPrintable(QString::number(cell_s)));

        ReportOptions o;
        o.x = Knob::matrix_tflops;
        o.y = Knob::matrix_tflops;  // one axis
        o.steps = 5;
        o.search_cells = false;
        const SweepSpec spec = report_sweep_spec(d.scenario.config, o);
        QCOMPARE(spec.x.values.size(), std::size_t{5});
        QVERIFY(!spec.y.has_value());
        QVERIFY(!spec.search);
    }

    void paretoHasOnePointPerDesign() {
        QCOMPARE(with_designs_.pareto.size(), std::size_t{4});
        int on_front = 0;
        for (const ParetoPoint& p : with_designs_.pareto) on_front += p.on_front ? 1 : 0;
        QVERIFY(on_front >= 1);
        QCOMPARE(report_page_count(with_designs_), 4);
        QCOMPARE(report_page_count(without_designs_), 3);
    }

    void cancelledBeforeItStartsComputesNothingAndWritesNothing() {
        const std::atomic<bool> cancel{true};
        const ReportData d = compute_report_data(without_designs_.scenario, ReportOptions{}, &cancel);
        QVERIFY(d.cancelled);
        QVERIFY(!d.best.has_value());
        QVERIFY(d.grid.cells.empty());
        QVERIFY(d.tornado.empty());
        QTemporaryDir dir;
        const QString path = dir.filePath("cancelled.pdf");
        const QString why = write_report_pdf(d, path);
        QVERIFY2(why.contains(path) && why.contains("cancelled"), qPrintable(why));
        QVERIFY(!QFile::exists(path));
    }

    void pdfHasFourPagesWithTheScenarioChartsAndDesigns() {
        QTemporaryDir dir;
        const QString path = dir.filePath("report.pdf");
        const QString why = write_report_pdf(with_designs_, path);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(read_all(path).startsWith("%PDF"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"report.pdf"});  // no temporary left

        const QString text = pdf_text(path);
        if (QTest::currentTestFailed()) return;
        for (const QString& expected : {QString::fromStdString(with_designs_.scenario.name), QString("Iteration time breakdown"),
                                        QString("Sensitivity of the best iteration time"), QString("Summary and assumptions"),
                                        QString("Comparison of designs"), QString("Cost and energy"), QString("Page 4 of 4"),
                                        QString::fromStdString(format_strategy(with_designs_.best->strategy)), QString("1.01 T")})
            QVERIFY2(text.contains(expected), qPrintable(expected + " not in:\n" + text));
        for (const DesignOutcome& o : with_designs_.comparison.designs)
            QVERIFY2(text.contains(QString::fromStdString(o.name)), o.name.c_str());
        QCOMPARE(pdf_pages(path), 4);
        const QString info = QString::fromUtf8(run_tool("pdfinfo", {path}));
        // The title follows the configuration (nodes, node, model), not the scenario's saved name.
        const Scenario& sc = with_designs_.scenario;
        QVERIFY2(info.contains(QStringLiteral("COMET Explorer report — %1 on %2 x %3")
                                   .arg(QString::fromStdString(sc.model_info.name))
                                   .arg(sc.config.cluster.nodes)
                                   .arg(QString::fromStdString(sc.node_info.name))),
                 qPrintable(info));
        ReportData smaller = with_designs_;
        smaller.scenario.config.cluster.nodes = 24;
        QVERIFY(ui::report_title(smaller).contains(QStringLiteral(" on 24 x ")));
        static const QRegularExpression creator(QStringLiteral("Creator:\\s+COMET Explorer"));
        QVERIFY2(info.contains(creator), qPrintable(info));
        QVERIFY2(info.contains("842 x 595 pts (A4)"), qPrintable(info));  // landscape
    }

    // A long model or node name: the header keeps the whole title (smaller, on two lines), never "…"
    // (issue 40: the report's title was cut).
    void longTitleIsPrintedWhole() {
        ReportData long_names = without_designs_;
        long_names.scenario.model_info.name = "Sparse mixture-of-experts research model with a long descriptive name (v2, internal)";
        long_names.scenario.node_info.name = "Eight-accelerator liquid-cooled server (rack-scale variant)";
        const QString title = ui::report_title(long_names);
        QTemporaryDir dir;
        const QString path = dir.filePath("long.pdf");
        QVERIFY(write_report_pdf(long_names, path).isEmpty());
        const QString text = pdf_text(path);
        const QString header = text.left(text.indexOf(QStringLiteral("(rack-scale variant)")) + 20);  // page 1's header
        QVERIFY2(header.startsWith(QStringLiteral("COMET Explorer report")) && !header.contains(QChar(0x2026)), qPrintable(header));
        for (const QString& word : title.split(QLatin1Char(' '), Qt::SkipEmptyParts))
            QVERIFY2(text.contains(word), qPrintable(word + " not in: " + text.left(600)));
        QVERIFY(text.count(QStringLiteral("(rack-scale variant)")) >= pdf_pages(path));  // on every page's header
    }

    void pdfWithoutDesignsHasThreePages() {
        QTemporaryDir dir;
        const QString path = dir.filePath("llama.pdf");
        QVERIFY(write_report_pdf(without_designs_, path).isEmpty());
        QCOMPARE(pdf_pages(path), 3);
        const QString text = pdf_text(path);
        QVERIFY(text.contains(QString::fromStdString(without_designs_.scenario.name)));
        QVERIFY(!text.contains("Comparison of designs"));
        QVERIFY(text.contains("Page 3 of 3"));
        QVERIFY(text.contains("a Pareto chart needs at least two"));  // one point: a note instead of the chart
    }

    void infeasibleScenarioSaysWhy() {
        Scenario s = without_designs_.scenario;
        s.config.node.hbm_capacity_gib = 8;  // nothing of a 70B model fits
        ReportOptions o;
        o.steps = 3;
        const ReportData d = compute_report_data(s, o);
        QVERIFY(!d.current.feasible);
        QVERIFY(d.best && !d.best->result.feasible);
        QTemporaryDir dir;
        const QString path = dir.filePath("infeasible.pdf");
        QVERIFY(write_report_pdf(d, path).isEmpty());
        const QString text = pdf_text(path);
        QVERIFY2(text.contains("Infeasible: " + QString::fromStdString(explain(d.current))), qPrintable(text));
        QVERIFY2(text.contains("No feasible base configuration"), qPrintable(text));  // the tornado
    }

    // A mixture of experts with context parallelism: the model's total and active parameters, its
    // experts, and the EP all-to-all and CP ring exchange in the breakdown table.
    void moeScenarioShowsActiveParametersAndTheNewParts() {
        Scenario s = without_designs_.scenario;
        s.config = test::moe_config();
        ReportOptions o;
        o.steps = 3;
        o.search_cells = false;
        const ReportData d = compute_report_data(s, o);
        QVERIFY(d.current.feasible);
        QVERIFY(d.current.time.ep_comm_s > 0 && d.current.time.cp_comm_s > 0);
        QTemporaryDir dir;
        const QString path = dir.filePath("moe.pdf");
        QVERIFY(write_report_pdf(d, path).isEmpty());
        const QString text = pdf_text(path);
        const QString parameters = format_parameters(total_parameters(s.config.model), active_parameters(s.config.model));
        QVERIFY(parameters.contains(" active"));
        QVERIFY2(text.contains(parameters), qPrintable(text));
        QVERIFY2(text.contains("8 routed (top-2, MLP 14336)"), qPrintable(text));
        QVERIFY2(text.contains("EP all-to-all"), qPrintable(text));
        QVERIFY2(text.contains("CP ring exchange"), qPrintable(text));
    }

    void everyPageRasterisesAndTheHeatmapIsViridis() {
        QTemporaryDir dir;
        const QString path = dir.filePath("report.pdf");
        QVERIFY(write_report_pdf(with_designs_, path).isEmpty());
        run_tool("pdftoppm", {"-r", "40", "-png", path, dir.filePath("page")});
        if (QTest::currentTestFailed()) return;
        const QStringList pages = QDir(dir.path()).entryList({"page-*.png"}, QDir::Files, QDir::Name);
        QCOMPARE(pages.size(), 4);
        for (const QString& name : pages) {
            const QImage page(dir.filePath(name));
            QVERIFY(!page.isNull());
            QCOMPARE(page.size(), QSize(468, 331));  // A4 landscape at 40 dpi
            const int colors = distinct_colors(page);
            const double ink = non_white_share(page);
            qInfo("%s: %d colours, %.1f %% not white", qPrintable(name), colors, 100 * ink);
            QVERIFY2(colors >= 20, qPrintable(name));
            QVERIFY2(ink > 0.05, qPrintable(name));
        }
        // Page 2: the heatmap covers both ends and the middle of the viridis palette.
        const QImage heatmap(dir.filePath(pages[1]));
        for (double t : {0.05, 0.5, 0.95}) {
            const int n = pixels_near(heatmap, ColorScale::palette(t), 40);
            QVERIFY2(n >= 30, qPrintable(QString("palette(%1): %2 pixels").arg(t).arg(n)));
        }
    }

    // compute_report_data runs on workers; painting must not, and says so instead of crashing.
    void computesOnAWorkerButPaintsOnlyOnTheGuiThread() {
        QTemporaryDir dir;
        const QString path = dir.filePath("worker.pdf");
        ReportData computed;
        QString why;
        std::thread worker([&] {
            ReportOptions o;
            o.steps = 3;
            computed = compute_report_data(without_designs_.scenario, o);
            why = write_report_pdf(computed, path);
        });
        worker.join();
        QVERIFY(!computed.cancelled);
        QCOMPARE(computed.grid.cells.size(), std::size_t{9});
        QVERIFY2(why.contains(path) && why.contains("GUI thread"), qPrintable(why));
        QVERIFY(!QFile::exists(path));
        QVERIFY(write_report_pdf(computed, path).isEmpty());  // the same data, on the GUI thread
        QCOMPARE(pdf_pages(path), 3);
    }

    void missingDirectoryIsNamedAndNothingIsWritten() {
        QTemporaryDir dir;
        const QString path = dir.filePath("missing/report.pdf");
        const QString why = write_report_pdf(with_designs_, path);
        QVERIFY2(why.contains(path), qPrintable(why));
        QVERIFY2(why.contains("does not exist"), qPrintable(why));
        QVERIFY(QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot).isEmpty());
    }

    void existingFileSurvivesAFailedWrite() {
        QTemporaryDir dir;
        // The temporary file is written beside the target as "<name>.XXXXXX": with a 254-byte
        // name it would exceed the file-system limit of 255, so it cannot be created, whoever runs
        // the test (a read-only directory does not stop root).
        const QString name = QString(250, QLatin1Char('r')) + ".pdf";
        const QString path = dir.filePath(name);
        write_file(path, precious());
        const QString why = write_report_pdf(with_designs_, path);
        QVERIFY2(!why.isEmpty() && why.contains(path), qPrintable(why));
        QCOMPARE(read_all(path), precious());
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{name});

        // A refused (cancelled) report leaves it too; a complete one replaces it wholly.
        ReportData cancelled = with_designs_;
        cancelled.cancelled = true;
        const QString other = dir.filePath("kept.pdf");
        write_file(other, precious());
        QVERIFY(!write_report_pdf(cancelled, other).isEmpty());
        QCOMPARE(read_all(other), precious());
        QVERIFY(write_report_pdf(with_designs_, other).isEmpty());
        QVERIFY(read_all(other).startsWith("%PDF"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);
    }
};

QTEST_MAIN(TestReport)
#include "test_report.moc"
