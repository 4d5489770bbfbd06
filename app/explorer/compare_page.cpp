#include "compare_page.hpp"

#include <QActionGroup>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QTimer>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "charts/chart_views.hpp"
#include "comet/presets.hpp"
#include "comet/report.hpp"
#include "common/metrics.hpp"
#include "common/scenario_document.hpp"
#include "common/validation_status.hpp"

namespace comet::app {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString node_name(const Design& d) { return d.node_info.name.empty() ? QObject::tr("(custom node)") : qs(d.node_info.name); }

// How the table's row header and the charts' short row labels number design `row`: "#1".
QString design_number(int row) { return QStringLiteral("#%1").arg(row + 1); }

QString design_label(const Design& d) {
    return QStringLiteral("%1 x%2").arg(d.node_info.name.empty() ? QStringLiteral("node") : qs(d.node_info.name)).arg(d.nodes);
}

// A name that no other design has: "base", "base (2)", ...
std::string unique_name(const std::vector<Design>& designs, const std::string& base) {
    auto taken = [&](const std::string& n) {
        return std::any_of(designs.begin(), designs.end(), [&](const Design& d) { return d.name == n; });
    };
    std::string name = base;
    for (int i = 2; taken(name); ++i) name = base + " (" + std::to_string(i) + ")";
    return name;
}

QTableWidgetItem* item(const QString& text, bool editable, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter) {
    auto* it = new QTableWidgetItem(text);
    it->setTextAlignment(align);
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (editable) flags |= Qt::ItemIsEditable;
    it->setFlags(flags);
    return it;
}

constexpr Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;

// The GPU price a design pays and where it comes from, never a silent fallback: its own (hourly,
// or a purchase price amortised over the scenario's lifetime), or the scenario's (named as
// such, in grey). One node has one price: a design on the scenario's node pays the scenario's.
QTableWidgetItem* priceItem(const Design& d, const Scenario& s) {
    const CostInputs& scenario = s.cost;
    const bool own_hourly = d.price_per_gpu_hour_usd > 0, own_purchase = !own_hourly && d.purchase_price_per_gpu_usd > 0;
    const bool scenario_node = on_scenario_node(s, d);
    const QString node_name = qs(d.node_info.name.empty() ? std::string("this node") : d.node_info.name);
    if (own_hourly || own_purchase) {
        auto* it = item(own_hourly ? qs(format_hourly_price(d.price_per_gpu_hour_usd))
                                   : QObject::tr("%1 purchase").arg(qs(format_usd(d.purchase_price_per_gpu_usd))),
                        true, right);
        static const std::vector<NodePreset> presets = [] {  // for the tooltip only: read once
            std::vector<std::string> errors;
            return load_node_presets(errors);
        }();
        const auto p = std::find_if(presets.begin(), presets.end(), [&](const NodePreset& n) {
            return n.info.name == d.node_info.name && n.price && n.price->price_per_gpu_hour_usd == d.price_per_gpu_hour_usd &&
                   (own_hourly || n.price->purchase_price_per_gpu_usd == d.purchase_price_per_gpu_usd);
        });
        const QString what =
            own_hourly
                ? QObject::tr("per GPU-hour")
                : QObject::tr("purchase price per GPU, amortised over the scenario's %1 years at 100 % use").arg(scenario.lifetime_years);
        QString tip =
            p != presets.end()
                ? QObject::tr("This design's price (%1), from the %2 preset: %3").arg(what, qs(p->info.name), qs(p->price->source))
                : QObject::tr("This design's own price (%1)").arg(what);
        if (scenario_node) {
            // Only a file written by hand (or by an older version) gets here: loading moves an
            // agreeing price to the scenario.
            it->setForeground(QColor(0xD5, 0x5E, 0x00));
            tip += QObject::tr(
                       ". It runs on the scenario's node, whose price on the Cost & Sensitivity page is %1: the file gives "
                       "this node two prices. Type one price here to make it the node's price everywhere.")
                       .arg(qs(format_gpu_price(scenario)));
        } else {
            tip += QObject::tr(". A price typed here is the price of %1 for every design on it.").arg(node_name);
        }
        it->setToolTip(tip);
        return it;
    }
    const bool purchase = scenario.price_per_gpu_hour_usd <= 0 && scenario.purchase_price_per_gpu_usd > 0;
    auto* it = item(purchase ? QObject::tr("purchase, scenario")
                             : QObject::tr("%1 scenario").arg(qs(format_hourly_price(scenario.price_per_gpu_hour_usd))),
                    true, right);
    it->setForeground(QColor(0x70, 0x70, 0x70));
    it->setToolTip(scenario_node
                       ? QObject::tr("Runs on the scenario's node (%1), so it pays the scenario's price (%2, Cost & Sensitivity "
                                     "page). A price typed here is that node's price everywhere: the scenario's, the report's and "
                                     "every design's on %1.")
                             .arg(node_name, qs(format_gpu_price(scenario)))
                       : QObject::tr("No price of its own: the scenario's price (Cost & Sensitivity page) applies. Type a price per "
                                     "GPU-hour, or a purchase price per GPU followed by \"purchase\", to price %1 (every design "
                                     "on it).")
                             .arg(node_name));
    return it;
}
constexpr int max_nodes = 10'000'000;

}  // namespace

ComparePage::ComparePage(ui::ScenarioDocument* doc, QWidget* parent) : QWidget(parent), doc_(doc) {
    buildLayout();
    compare_ = new ui::WhileShown(this, [this] { compare(); });
    connect(doc_, &ui::ScenarioDocument::changed, this, &ComparePage::schedule);
    connect(table_, &QTableWidget::cellChanged, this, &ComparePage::onItemChanged);
    connect(table_, &QTableWidget::itemSelectionChanged, this, &ComparePage::updateButtons);
    connect(&job_, &ui::LatestJob::busyChanged, this, [this](bool busy) {
        if (busy) hint_->setText(tr("Comparing…"));
    });
    schedule();
}

ComparePage::~ComparePage() = default;

void ComparePage::buildLayout() {
    add_current_ = new QPushButton(tr("Add &Current"), this);
    add_current_->setToolTip(tr("Add the configuration in the forms as a design: its node, cluster size and strategy"));
    add_best_ = new QPushButton(tr("Add Current with &Best Strategy"), this);
    add_best_->setToolTip(tr("Add the node and cluster size in the forms; the design searches every strategy for the fastest"));
    add_preset_ = new QPushButton(tr("Add &Node Preset…"), this);
    add_preset_->setToolTip(tr("Add a node from the preset library at a cluster size, with its best strategy"));
    remove_ = new QPushButton(tr("&Remove"), this);
    remove_->setToolTip(tr("Remove the selected design"));
    baseline_ = new QComboBox(this);
    baseline_->setToolTip(tr("Speedups are relative to this design"));
    baseline_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    hint_ = new QLabel(this);
    hint_->setWordWrap(true);

    connect(add_current_, &QPushButton::clicked, this, [this] { addCurrent(false); });
    connect(add_best_, &QPushButton::clicked, this, [this] { addCurrent(true); });
    connect(add_preset_, &QPushButton::clicked, this, &ComparePage::addPresetDialog);
    connect(remove_, &QPushButton::clicked, this, [this] {
        const int row = table_->currentRow();
        if (row >= 0) removeDesign(row);
    });
    connect(baseline_, &QComboBox::activated, this, &ComparePage::setBaseline);

    auto* bar = new QHBoxLayout;
    bar->addWidget(add_current_);
    bar->addWidget(add_best_);
    bar->addWidget(add_preset_);
    bar->addWidget(remove_);
    bar->addSpacing(16);
    auto* baseline_label = new QLabel(tr("Base&line:"), this);
    baseline_label->setBuddy(baseline_);
    bar->addWidget(baseline_label);
    bar->addWidget(baseline_);
    bar->addStretch(1);

    table_ = new QTableWidget(0, col_count, this);
    table_->setHorizontalHeaderLabels({tr("Design"), tr("Node"), tr("Nodes"), tr("$/GPU-h"), tr("Iteration"), tr("Speedup"), tr("MFU"),
                                       tr("HBM / GPU"), tr("$ / M tokens"), tr("Time, cost to train"), tr("Likely error"), tr("Strategy")});
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // Strategies are long: shown whole (the table scrolls sideways on small screens), never elided.
    table_->setTextElideMode(Qt::ElideNone);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setStretchLastSection(false);  // a stretched last column can be narrower than its text
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAccessibleName(tr("Designs compared"));
    table_->setContextMenuPolicy(Qt::CustomContextMenu);  // a design's software, removal
    connect(table_, &QTableWidget::customContextMenuRequested, this, &ComparePage::tableMenu);
    table_->horizontalHeaderItem(col_strategy)
        ->setToolTip(tr("Checked: search for the best strategy; unchecked: the strategy saved with the design"));
    table_->horizontalHeaderItem(col_strategy)
        ->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);  // visible before the column scrolls in whole
    table_->horizontalHeaderItem(col_price)->setToolTip(
        tr("Price per GPU-hour of this design, or its purchase price per GPU (\"$15,625 purchase\", amortised over the "
           "scenario's lifetime); empty = the scenario's price (Cost & Sensitivity page)"));
    connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (presentation_) fitTableHeight();
    });
    table_->horizontalHeaderItem(col_band)->setToolTip(
        tr("How far to trust the design's iteration time, cost and time to train: measured / predicted time over the published "
           "runs of its node with its software (else its node on any software, else its software on any node; presets/validation, "
           "comet-cli validate). \"not validated\": no published run. Hover a row's cell for the ranges"));
    table_->horizontalHeaderItem(col_speedup)->setToolTip(tr("Baseline iteration time / this design's: 2.00x = twice as fast"));

    breakdown_ = ui::make_breakdown_chart(this);
    breakdown_->setTitle(tr("Iteration time breakdown per design"));
    memory_ = ui::make_memory_chart(this);
    memory_->setTitle(tr("Memory per accelerator per design"));

    auto* charts = new QSplitter(Qt::Horizontal, this);
    charts->addWidget(breakdown_->widget());
    charts->addWidget(memory_->widget());
    charts->setStretchFactor(0, 3);
    charts->setStretchFactor(1, 2);
    charts->setChildrenCollapsible(false);
    charts_ = charts;

    fitTableHeight();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(hint_);
    layout->addWidget(table_);
    layout->addWidget(charts, 1);
}

// The table holds at most four designs: as tall as that (at the current font: presentation mode
// makes the rows taller), the charts take the rest. Its last column is as wide as its contents.
void ComparePage::fitTableHeight() {
    const QFontMetrics fm(table_->font());
    // In presentation mode the name and the strategy share the width the other columns leave and
    // wrap onto two lines when that is wide enough for the longer of them; on a narrower screen
    // (1280x720) they keep one line and the table scrolls sideways, so that the charts below keep
    // the height their labels need.
    int lines = 1;
    bool wrap = false;
    if (presentation_) {
        QFont bold = table_->font();
        bold.setBold(true);
        const QFontMetrics fb(bold);
        int longest = 0;
        for (int r = 0; r < table_->rowCount(); ++r) {
            if (const QTableWidgetItem* it = table_->item(r, col_name)) longest = std::max(longest, fb.horizontalAdvance(it->text()) + 12);
            if (const QTableWidgetItem* it = table_->item(r, col_strategy))
                longest = std::max(longest, fm.horizontalAdvance(it->text()) + 12 + 2 * fm.height());
        }
        int others = 0;
        for (int col = 0; col < col_count; ++col)
            if (col != col_name && col != col_strategy && !table_->isColumnHidden(col))
                others += std::max(static_cast<const QAbstractItemView*>(table_)->sizeHintForColumn(col),
                                   table_->horizontalHeader()->sectionSizeHint(col));
        const int room = table_->viewport()->width() - others;
        wrap = room >= longest * 23 / 20;  // two lines of half the room each, with slack for word breaks
        lines = wrap ? 2 : 1;
    }
    if (wrap != table_->wordWrap()) {
        table_->setWordWrap(wrap);
        for (const int col : {int(col_name), int(col_strategy)})
            table_->horizontalHeader()->setSectionResizeMode(col, wrap ? QHeaderView::Stretch : QHeaderView::ResizeToContents);
    }
    const int row = std::max(table_->style()->pixelMetric(QStyle::PM_HeaderDefaultSectionSizeVertical, nullptr, table_->verticalHeader()),
                             lines * fm.lineSpacing() + 10);

    table_->verticalHeader()->setDefaultSectionSize(row);
    const int rows_height = table_->horizontalHeader()->sizeHint().height() + max_designs * row +
                            table_->horizontalScrollBar()->sizeHint().height() + 2 * table_->frameWidth() + 4;
    table_->setFixedHeight(rows_height);
}

void ComparePage::setPresentation(bool on) {
    // On a projector the results must fit across: the node type and the price are inputs the
    // design's name and the cost columns already carry, so they make room at the larger font.
    table_->setColumnHidden(col_node, on);
    table_->setColumnHidden(col_price, on);
    // The memory per GPU is the chart's below, per design. The name and the strategy share the
    // rest of the width and wrap onto a second line: nothing to scroll to.
    table_->setColumnHidden(col_hbm, on);
    presentation_ = on;
    fitTableHeight();
    if (on) {
        normal_sizes_ = charts_->sizes();
        const int total = normal_sizes_.value(0) + normal_sizes_.value(1);
        charts_->setSizes({total / 2, total - total / 2});
    } else if (!normal_sizes_.isEmpty()) {
        charts_->setSizes(normal_sizes_);
    }
}

void ComparePage::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    // Wrap or scroll: the table's new width decides, once the layout has given it.
    if (presentation_ && table_) QTimer::singleShot(0, this, [this] { fitTableHeight(); });
}

void ComparePage::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange && table_) fitTableHeight();
}

Scenario ComparePage::withDesigns(std::vector<Design> designs) const {
    Scenario s = doc_->scenario();
    s.designs = std::move(designs);
    if (s.baseline_design >= static_cast<int>(s.designs.size())) s.baseline_design = 0;
    return s;
}

bool ComparePage::addCurrent(bool best_strategy) {
    const Scenario& s = doc_->scenario();
    if (s.designs.size() >= static_cast<std::size_t>(max_designs)) return false;
    Design d = design_from_scenario(s, {}, best_strategy);
    std::string base = design_label(d).toStdString() +
                       (best_strategy ? ", best strategy" : ", " + format_strategy(d.strategy, s.config.workload).substr(0, 24));
    std::vector<Design> designs = s.designs;
    d.name = unique_name(designs, base);
    designs.push_back(std::move(d));
    doc_->setScenario(withDesigns(std::move(designs)), tr("Add design"));
    return true;
}

bool ComparePage::addPreset(const QString& preset_id, int nodes, const QString& software_id) {
    const Scenario& s = doc_->scenario();
    if (s.designs.size() >= static_cast<std::size_t>(max_designs) || nodes < 1 || nodes > max_nodes) return false;
    const std::optional<NodePreset> p = find_node_preset(preset_id.toStdString());
    if (!p) return false;
    std::optional<SoftwarePreset> sw;
    if (!software_id.isEmpty()) {
        sw = find_software_preset(software_id.toStdString());
        if (!sw) return false;
    }
    Design d;
    if (sw) {
        d.own_software = true;
        d.software = sw->software;
        d.software_info = sw->info;
    }
    d.node = p->node;
    d.node_info = p->info;
    d.nodes = nodes;
    d.best_strategy = true;
    // One node, one price: on the scenario's node the design pays the scenario's price; on a node
    // another design already prices, that price; else the preset's own.
    const Design* priced = design_pricing(s, p->node);
    if (p->node == s.config.node) {
        // nothing of its own
    } else if (priced != nullptr) {
        d.price_per_gpu_hour_usd = priced->price_per_gpu_hour_usd;
        d.purchase_price_per_gpu_usd = priced->purchase_price_per_gpu_usd;
    } else if (p->price) {
        d.price_per_gpu_hour_usd = p->price->price_per_gpu_hour_usd;
        d.purchase_price_per_gpu_usd = p->price->purchase_price_per_gpu_usd;
    }
    std::vector<Design> designs = s.designs;
    d.name = unique_name(designs, design_label(d).toStdString() + (sw ? ", " + sw->info.name : std::string()) + ", best strategy");
    designs.push_back(std::move(d));
    doc_->setScenario(withDesigns(std::move(designs)), tr("Add design"));
    return true;
}

bool ComparePage::setDesignSoftware(int row, const QString& software_id) {
    std::vector<Design> designs = doc_->scenario().designs;
    if (row < 0 || row >= static_cast<int>(designs.size())) return false;
    Design& d = designs[static_cast<std::size_t>(row)];
    if (software_id.isEmpty()) {
        if (!d.own_software) return true;
        d.own_software = false;
        d.software = {};
        d.software_info = {};
    } else {
        const std::optional<SoftwarePreset> sw = find_software_preset(software_id.toStdString());
        if (!sw) return false;
        if (d.own_software && d.software == sw->software && d.software_info.name == sw->info.name) return true;
        d.own_software = true;
        d.software = sw->software;
        d.software_info = sw->info;
    }
    doc_->setScenario(withDesigns(std::move(designs)), tr("Change design software"));
    return true;
}

// Right click on a design: run it on another software preset, or on the scenario's again.
void ComparePage::tableMenu(const QPoint& pos) {
    const int row = table_->rowAt(pos.y());
    const Scenario& s = doc_->scenario();
    if (row < 0 || row >= static_cast<int>(s.designs.size())) return;
    const Design& d = s.designs[static_cast<std::size_t>(row)];
    std::vector<std::string> errors;
    const std::vector<SoftwarePreset> presets = load_software_presets(errors);
    QMenu menu(this);
    QMenu* software = menu.addMenu(tr("&Software of %1").arg(design_number(row)));
    auto* group = new QActionGroup(software);
    QAction* same =
        software->addAction(tr("The scenario's (%1)").arg(qs(s.software_info.name.empty() ? std::string("edited") : s.software_info.name)));
    same->setCheckable(true);
    same->setChecked(!d.own_software);
    group->addAction(same);
    connect(same, &QAction::triggered, this, [this, row] { setDesignSoftware(row, {}); });
    software->addSeparator();
    for (const SoftwarePreset& p : presets) {
        QAction* a = software->addAction(qs(p.info.name.empty() ? p.id : p.info.name));
        a->setCheckable(true);
        a->setChecked(d.own_software && d.software == p.software && d.software_info.name == p.info.name);
        a->setToolTip(qs(p.info.source));
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, row, id = qs(p.id)] { setDesignSoftware(row, id); });
    }
    menu.addAction(tr("&Remove %1").arg(design_number(row)), this, [this, row] { removeDesign(row); });
    menu.exec(table_->viewport()->mapToGlobal(pos));
}

void ComparePage::removeDesign(int index) {
    std::vector<Design> designs = doc_->scenario().designs;
    if (index < 0 || index >= static_cast<int>(designs.size())) return;
    designs.erase(designs.begin() + index);
    Scenario s = withDesigns(std::move(designs));
    if (index < s.baseline_design) --s.baseline_design;
    s.baseline_design = std::clamp(s.baseline_design, 0, std::max(0, static_cast<int>(s.designs.size()) - 1));
    doc_->setScenario(s, tr("Remove design"));
}

void ComparePage::setBaseline(int index) {
    Scenario s = doc_->scenario();
    if (index < 0 || index >= static_cast<int>(s.designs.size()) || index == s.baseline_design) return;
    s.baseline_design = index;
    doc_->setScenario(s, tr("Change baseline design"));
}

void ComparePage::addPresetDialog() {
    std::vector<std::string> errors;
    const std::vector<NodePreset> presets = load_node_presets(errors);
    if (presets.empty()) {
        Q_EMIT statusMessage(tr("No node presets found."));
        return;
    }
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Add Node Preset"));
    auto* node = new QComboBox(&dialog);
    for (const NodePreset& p : presets) node->addItem(qs(p.info.name.empty() ? p.id : p.info.name), qs(p.id));
    auto* count = new QSpinBox(&dialog);
    count->setRange(1, max_nodes);
    const Config& c = doc_->config();
    const long long gpus = static_cast<long long>(c.cluster.nodes) * c.node.accelerators;
    // Keep the GPU count of the current cluster where the preset's node size allows.
    auto same_gpus = [&, gpus](int i) {
        const int per_node = std::max(1, presets[static_cast<std::size_t>(i)].node.accelerators);
        count->setValue(static_cast<int>(std::clamp<long long>((gpus + per_node - 1) / per_node, 1, max_nodes)));
    };
    same_gpus(0);
    connect(node, &QComboBox::currentIndexChanged, &dialog, same_gpus);
    auto* software = new QComboBox(&dialog);
    const Scenario& sc = doc_->scenario();
    software->addItem(tr("The scenario's (%1)").arg(qs(sc.software_info.name.empty() ? std::string("edited") : sc.software_info.name)),
                      QString());
    for (const SoftwarePreset& p : load_software_presets(errors)) {
        software->addItem(qs(p.info.name.empty() ? p.id : p.info.name), qs(p.id));
        software->setItemData(software->count() - 1, qs(p.info.source), Qt::ToolTipRole);
    }
    auto* form = new QFormLayout;
    form->addRow(tr("&Node:"), node);
    form->addRow(tr("N&odes:"), count);
    form->addRow(tr("&Software:"), software);
    auto* note = new QLabel(tr("The design trains the scenario's model and batch and searches for its best strategy. "
                               "Right-click a design in the table to change its software later."),
                            &dialog);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    if (dialog.exec() == QDialog::Accepted) addPreset(node->currentData().toString(), count->value(), software->currentData().toString());
}

void ComparePage::schedule() {
    const Scenario& s = doc_->scenario();
    fillTable();
    updateButtons();
    if (s.designs.empty()) {
        job_.cancel();
        shown_.reset();
        hint_->setText(tr("No designs yet. Add the configuration in the forms, or a node preset, to compare up to %1 "
                          "designs on this model and batch.")
                           .arg(max_designs));
        updateCharts();
        Q_EMIT compared();
        return;
    }
    // The table follows every edit; the searches only while the page is on screen.
    compare_->request();
}

void ComparePage::compare() {
    if (doc_->scenario().designs.empty()) return;  // schedule() showed the empty page
    using Compared = std::pair<Comparison, std::vector<TrustBand>>;
    ui::run_latest<Compared>(
        job_,
        [s = doc_->scenario()](const std::atomic<bool>& cancel) {
            SearchControl control;
            control.cancel = &cancel;
            Compared out{compare_designs(s, SearchOptions{}, control), {}};
            // How far to trust each answer: its node's and software's published runs.
            if (!out.first.cancelled) out.second = trust_bands(ui::shipped_validation_and_presets(), s, out.first);
            return out;
        },
        [this](Compared c) {
            if (!c.first.cancelled) show(std::move(c.first), std::move(c.second));
        });
}

void ComparePage::waitForResults() {
    compare_->flush();
    while (job_.busy()) {
        job_.wait();
        QCoreApplication::processEvents();
    }
}

QString ComparePage::hintText() const { return hint_->text(); }

void ComparePage::show(Comparison c, std::vector<TrustBand> bands) {
    shown_ = std::move(c);
    bands_ = std::move(bands);
    bands_.resize(shown_->designs.size());  // (a cancelled job's are never shown)
    if (highlighted_ >= static_cast<int>(shown_->designs.size())) highlighted_ = -1;
    fillTable();
    updateCharts();
    const auto& designs = shown_->designs;
    const int feasible =
        static_cast<int>(std::count_if(designs.begin(), designs.end(), [](const DesignOutcome& o) { return o.result.feasible; }));
    QString hint =
        feasible == static_cast<int>(designs.size())
            ? tr("%n design(s) on the same model and batch. Edit names, node counts, prices and the strategy "
                 "check box in the table.",
                 "", feasible)
            : tr("%1 of %2 designs cannot run (see the table).").arg(static_cast<int>(designs.size()) - feasible).arg(designs.size());
    const int base = shown_->baseline;
    if (base >= 0 && base < static_cast<int>(designs.size()) && !designs[static_cast<std::size_t>(base)].result.feasible)
        hint += QLatin1Char(' ') +
                tr("The baseline %1 cannot run, so no speedup is shown: choose another in Baseline above.").arg(design_number(base));
    hint_->setText(hint);
    // A purchase price amortised at full use is the hardware alone; a rental price includes the
    // rest. Say so where one table holds both, since their costs are not like for like.
    QStringList bought;
    bool rented = false;
    for (std::size_t i = 0; i < designs.size(); ++i) {
        if (!designs[i].cost.valid || designs[i].cost.gpu_hour_price_usd <= 0) continue;
        if (designs[i].cost.amortised)
            bought << design_number(static_cast<int>(i));
        else
            rented = true;
    }
    if (!bought.isEmpty() && rented)
        hint_->setText(hint_->text() + QLatin1Char(' ') +
                       tr("Costs of %1: a purchase price amortised over %2 years at 100 % use (the hardware alone); the "
                          "others are rental prices (server, hosting and the provider's margin included). Not like for like.")
                           .arg(bought.join(QStringLiteral(", ")))
                           .arg(doc_->scenario().cost.lifetime_years));
    Q_EMIT compared();
}

void ComparePage::fillTable() {
    const Scenario& s = doc_->scenario();
    filling_ = true;
    const int keep = table_->currentRow();
    table_->setRowCount(static_cast<int>(s.designs.size()));
    // The cost column counts the workload's items: a DLRM trains on samples, not tokens.
    table_->horizontalHeaderItem(col_cost)->setText(s.config.workload == Workload::dlrm ? tr("$ / M samples") : tr("$ / M tokens"));
    const bool results = shown_ && shown_->designs.size() == s.designs.size();
    for (int row = 0; row < static_cast<int>(s.designs.size()); ++row) {
        const Design& d = s.designs[static_cast<std::size_t>(row)];
        const bool baseline = row == s.baseline_design;
        auto* name = item(qs(d.name), true);
        QFont f = name->font();
        f.setBold(baseline);
        name->setFont(f);
        name->setToolTip(baseline ? tr("Baseline design") : QString());
        table_->setItem(row, col_name, name);
        auto* number = new QTableWidgetItem(design_number(row));
        number->setToolTip(tr("Design %1: the charts name it so where a row has no room for its name").arg(row + 1));
        table_->setVerticalHeaderItem(row, number);
        // A design on software of its own says so where its node is named.
        auto* node = item(d.own_software ? tr("%1 · %2").arg(node_name(d), qs(d.software_info.name.empty() ? std::string("own software")
                                                                                                           : d.software_info.name))
                                         : node_name(d),
                          false);
        node->setToolTip(tr("%1 accelerators, %2 TFLOP/s, %3 GiB HBM at %4 GB/s, scale-out %5 GB/s per accelerator, %6 kW")
                             .arg(d.node.accelerators)
                             .arg(d.node.matrix_fp16_tflops)
                             .arg(d.node.hbm_capacity_gib)
                             .arg(d.node.hbm_bandwidth_gbps)
                             .arg(d.node.scale_out.bandwidth_gbps)
                             .arg(d.node.power_kw) +
                         QLatin1Char('\n') +
                         tr("Software: %1")
                             .arg(qs(d.own_software ? (d.software_info.name.empty() ? std::string("(edited)") : d.software_info.name)
                                                    : (s.software_info.name.empty() ? std::string("(edited)")
                                                                                    : s.software_info.name + " (the scenario's)"))));
        table_->setItem(row, col_node, node);
        table_->setItem(row, col_nodes, item(QString::number(d.nodes), true, right));
        const DesignOutcome* o = results ? &shown_->designs[static_cast<std::size_t>(row)] : nullptr;
        const Workload w = doc_->config().workload;
        QString strategy = d.best_strategy ? tr("best") : qs(format_strategy(d.strategy, w));
        if (d.best_strategy && o && o->result.feasible) strategy = tr("best: %1").arg(qs(format_strategy(o->config.strategy, w)));
        auto* st = item(strategy, false);
        st->setToolTip(strategy);
        st->setFlags(st->flags() | Qt::ItemIsUserCheckable);
        st->setCheckState(d.best_strategy ? Qt::Checked : Qt::Unchecked);
        table_->setItem(row, col_strategy, st);
        table_->setItem(row, col_price, priceItem(d, s));
        if (!o) {
            for (int col = col_time; col < col_results_end; ++col) table_->setItem(row, col, item(QStringLiteral("…"), false, right));
            continue;
        }
        const Result& r = o->result;
        if (!r.feasible) {
            auto* why = item(tr("cannot run: %1").arg(qs(explain(r))), false);
            why->setForeground(QColor(0xD5, 0x5E, 0x00));
            table_->setItem(row, col_time, why);
            table_->setSpan(row, col_time, 1, col_results_end - col_time);
            continue;
        }
        if (table_->columnSpan(row, col_time) > 1) table_->setSpan(row, col_time, 1, 1);
        table_->setItem(row, col_time, item(ui::format_seconds(r.iteration_s), false, right));
        table_->setItem(row, col_speedup,
                        item(o->speedup > 0 ? QStringLiteral("%1x").arg(o->speedup, 0, 'f', 2) : QStringLiteral("–"), false, right));
        const TrustBand& band = bands_[static_cast<std::size_t>(row)];
        // An MFU above every published run on the node is flagged (issue 40).
        const QString mfu_flag = ui::mfu_flag_text(band, r.mfu);
        auto* mfu = item(QStringLiteral("%1 %").arg(100 * r.mfu, 0, 'f', 1) + (mfu_flag.isEmpty() ? QString() : QStringLiteral(" \u26A0")),
                         false, right);
        if (!mfu_flag.isEmpty()) {
            mfu->setToolTip(mfu_flag);
            mfu->setForeground(QColor(0xD5, 0x5E, 0x00));
        }
        table_->setItem(row, col_mfu, mfu);
        table_->setItem(row, col_hbm,
                        item(tr("%1 of %2 GiB")
                                 .arg(r.hbm.used_bytes() / double(1 << 30), 0, 'f', 1)
                                 .arg(r.hbm.capacity_bytes / double(1 << 30), 0, 'f', 0),
                             false, right));
        const CostReport& c = o->cost;
        table_->setItem(
            row, col_cost,
            item(c.valid && c.cost_per_million_tokens_usd > 0 ? ui::format_money(c.cost_per_million_tokens_usd) : QStringLiteral("–"),
                 false, right));
        table_->setItem(row, col_train,
                        item(c.valid && c.time_to_train_s > 0
                                 ? tr("%1, %2").arg(ui::format_duration(c.time_to_train_s), ui::format_money(c.cost_to_train_usd))
                                 : tr("no token budget"),
                             false));
        auto* trust = item(ui::trust_range_text(band), false, right);
        trust->setToolTip(ui::trust_band_text(band, r.iteration_s, c.valid ? c.cost_per_million_tokens_usd : 0,
                                              c.valid ? c.time_to_train_s : 0, c.valid ? c.cost_to_train_usd : 0));
        if (!band.validated()) trust->setForeground(QColor(0xD5, 0x5E, 0x00));
        table_->setItem(row, col_band, trust);
    }
    if (keep >= 0 && keep < table_->rowCount()) table_->selectRow(keep);
    // The baseline choice mirrors the designs.
    baseline_->blockSignals(true);
    baseline_->clear();
    for (const Design& d : s.designs) baseline_->addItem(qs(d.name));
    baseline_->setCurrentIndex(s.designs.empty() ? -1 : s.baseline_design);
    baseline_->blockSignals(false);
    filling_ = false;
    if (presentation_) fitTableHeight();  // the texts decide the rows' lines
}

void ComparePage::onItemChanged(int row, int column) {
    if (filling_) return;
    std::vector<Design> designs = doc_->scenario().designs;
    if (row < 0 || row >= static_cast<int>(designs.size())) return;
    Design& d = designs[static_cast<std::size_t>(row)];
    const QTableWidgetItem* it = table_->item(row, column);
    const QString text = it ? it->text().trimmed() : QString();
    QString problem;
    QString what;
    switch (column) {
        case col_name:
            if (text.isEmpty()) problem = tr("Design %1: the name cannot be empty.").arg(row + 1);
            d.name = text.toStdString();
            what = tr("Rename design");
            break;
        case col_nodes: {
            bool ok = false;
            const int n = text.toInt(&ok);
            if (!ok || n < 1 || n > max_nodes)
                problem = tr("Nodes of design %1 = \"%2\": must be an integer from 1 to %3.").arg(row + 1).arg(text).arg(max_nodes);
            if (problem.isEmpty()) {
                // A name the page made ("DGX H100 x8, best strategy (2)") follows the new size; a
                // name the user typed stays as typed.
                const std::string old_label = design_label(d).toStdString();
                d.nodes = n;
                if (d.name == old_label || d.name.starts_with(old_label + ", ")) {
                    std::string rest = d.name.substr(old_label.size());
                    if (const std::size_t open = rest.rfind(" ("); open != std::string::npos && rest.ends_with(")") &&
                                                                   rest.find_first_not_of("0123456789", open + 2) == rest.size() - 1)
                        rest.erase(open);  // the old " (2)": the new name gets its own if it needs one
                    std::vector<Design> others = designs;
                    others.erase(others.begin() + row);
                    d.name = unique_name(others, design_label(d).toStdString() + rest);
                }
            }
            d.nodes = n;
            what = tr("Change design nodes");
            break;
        }
        case col_price: {
            // The cell shows "$1.80 scenario" for a design without a price: that text (or empty) keeps it
            // so. "$15,625 purchase" (or "15625 purchase") is a purchase price per GPU.
            QString number = text;
            const bool scenario_price = number.contains(QStringLiteral("scenario"));
            const bool purchase = !scenario_price && number.contains(QStringLiteral("purchase"));
            number.remove(QLatin1Char('$')).remove(QLatin1Char(',')).remove(QStringLiteral("purchase"));
            bool ok = number.trimmed().isEmpty() || scenario_price;
            const double p = ok ? 0.0 : number.trimmed().toDouble(&ok);
            if (!ok || !std::isfinite(p) || p < 0)
                problem = tr("$/GPU-h of design %1 = \"%2\": must be a price per GPU-hour of at least 0, or a purchase price per GPU "
                             "followed by \"purchase\" (empty = the scenario's).")
                              .arg(row + 1)
                              .arg(text);
            if (!problem.isEmpty()) break;
            // One node, one price: a typed price is the node's, for the scenario when it is the
            // scenario's node and for every design on it (empty = no price of this design's own).
            Scenario sc = withDesigns(std::move(designs));
            Design& at = sc.designs[static_cast<std::size_t>(row)];
            const bool typed = !(number.trimmed().isEmpty() || scenario_price);
            if (typed) {
                set_node_price(sc, at.node, purchase ? 0.0 : p, purchase ? p : 0.0);
            } else {
                at.price_per_gpu_hour_usd = 0;
                at.purchase_price_per_gpu_usd = 0;
            }
            const QString node_name = qs(at.node_info.name.empty() ? at.name : at.node_info.name);
            if (scenario_to_json(sc) == scenario_to_json(doc_->scenario())) {
                fillTable();  // nothing changed: show the price as it was
                return;
            }
            doc_->setScenario(sc, typed ? tr("Change price of %1").arg(node_name) : tr("Change design price"));
            return;
        }
        case col_strategy:
            if (!it) return;
            d.best_strategy = it->checkState() == Qt::Checked;
            if (d.best_strategy == doc_->scenario().designs[static_cast<std::size_t>(row)].best_strategy) return;
            what = d.best_strategy ? tr("Search best strategy") : tr("Use saved strategy");
            break;
        default:
            return;
    }
    if (!problem.isEmpty()) {
        Q_EMIT statusMessage(problem);
        fillTable();  // back to the document's value
        return;
    }
    doc_->setScenario(withDesigns(std::move(designs)), what);
}

void ComparePage::updateButtons() {
    const bool room = doc_->scenario().designs.size() < static_cast<std::size_t>(max_designs);
    for (QPushButton* b : {add_current_, add_best_, add_preset_}) {
        b->setEnabled(room);
        b->setToolTip(room ? b->toolTip().section(QStringLiteral(" (full"), 0, 0)
                           : b->toolTip().section(QStringLiteral(" (full"), 0, 0) + tr(" (full: at most %1 designs)").arg(max_designs));
    }
    remove_->setEnabled(table_->currentRow() >= 0);
    baseline_->setEnabled(!doc_->scenario().designs.empty());
}

void ComparePage::updateCharts() {
    bars_.clear();
    std::vector<ui::MemoryBar> tiers;
    if (shown_) {
        const int n = static_cast<int>(shown_->designs.size());
        for (int i = 0; i < n; ++i) {
            // The designs' order, always (stepping must not reorder the bars); the highlighted one is marked.
            const DesignOutcome& o = shown_->designs[static_cast<std::size_t>(i)];
            if (!o.result.feasible) continue;
            // No ratio rests on a baseline that cannot run (issue 40): the bar says so instead of "0.00x".
            const QString speed = i == shown_->baseline ? tr("baseline")
                                  : o.speedup > 0       ? QStringLiteral("%1x").arg(o.speedup, 0, 'f', 2)
                                                        : tr("no baseline");
            // Speedup first. A row too short for the design's name (seven memory rows in
            // presentation mode) names the design by its number, as the table's rows do
            // (design_number()); the row's tooltip names it whole.
            const QString mark = i == highlighted_ ? QStringLiteral("\u25B6 ") : QString();
            const QString number = design_number(i);
            bars_.push_back({mark + QStringLiteral("%1 · %2").arg(speed, qs(o.name)), o.result.time,
                             mark + QStringLiteral("%1 · %2").arg(number, speed)});
            const bool two_tiers = o.result.expanded.capacity_bytes > 0;
            tiers.push_back({two_tiers ? tr("HBM · %1").arg(qs(o.name)) : qs(o.name), o.result.hbm, tr("%1 HBM").arg(number)});
            if (two_tiers) tiers.push_back({tr("Expanded · %1").arg(qs(o.name)), o.result.expanded, tr("%1 Expanded").arg(number)});
        }
    }
    breakdown_->setBars(bars_);
    memory_->setTiers(tiers);
    QString title = tr("Iteration time breakdown per design");
    if (shown_ && highlighted_ >= 0 && highlighted_ < static_cast<int>(shown_->designs.size())) {
        const DesignOutcome& o = shown_->designs[static_cast<std::size_t>(highlighted_)];
        title = tr("Design %1 of %2: %3").arg(highlighted_ + 1).arg(shown_->designs.size()).arg(qs(o.name));
    }
    breakdown_->setTitle(title);
}

int ComparePage::step(int delta) {
    const int n = static_cast<int>(doc_->scenario().designs.size());
    if (n == 0) return -1;
    highlighted_ = highlighted_ < 0 ? (delta >= 0 ? 0 : n - 1) : ((highlighted_ + delta) % n + n) % n;
    table_->selectRow(highlighted_);
    updateCharts();
    return highlighted_;
}

const ui::ChartRenderable* ComparePage::breakdownChart() const { return breakdown_.get(); }
const ui::ChartRenderable* ComparePage::memoryChart() const { return memory_.get(); }

QString ComparePage::exportData(const QString& path) const {
    if (!shown_) return tr("Nothing to export yet: add designs first.");
    const QString ext = QFileInfo(path).suffix().toLower();
    std::string text;
    if (ext == QLatin1String("json"))
        text = format_comparison_json(*shown_, bands_);
    else if (ext == QLatin1String("csv"))
        text = format_comparison_csv(*shown_, bands_);
    else
        return tr("Unknown format \"%1\": use .csv or .json").arg(ext);
    const std::string problem = save_text_atomically(path.toStdString(), text);
    return problem.empty() ? QString() : qs(problem);
}

}  // namespace comet::app
