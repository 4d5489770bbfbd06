#pragma once
// Private to the Qt Charts implementation: what every view of chart_views.hpp does the same way.
// ChartHost owns the live widget and the last data; exports lay out a fresh chart at the
// requested size so that the widget on screen is never resized behind the user's back.
// HostedView implements the common part of the view interfaces on top of it.
//
// A ChartT is an OverlayChart with
//   using Model = ...;                       // what the chart shows, built by chart_model.hpp
//   static QString defaultTitle(const Model&);
//   void setModel(Model);

#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>
#include <QPointer>
#include <optional>

#include "export/chart_export.hpp"
#include "qt_overlay_chart.hpp"

namespace comet::ui {

template <class ChartT>
class ChartHost {
public:
    explicit ChartHost(QWidget* parent) : chart_(new ChartT), view_(new TipChartView(chart_, parent)) {
        view_->tip = [chart = chart_](QPointF pos) { return chart->tooltipAt(pos); };
        // Queued: the chart asks while it places its overlays, and resizing the view re-lays it out.
        chart_->on_height_needed = [view = view_.data()](qreal h) {
            QMetaObject::invokeMethod(
                view, [view, h] { view->setMinimumChartHeight(h); }, Qt::QueuedConnection);
        };
    }
    ~ChartHost() { delete view_.data(); }
    ChartHost(const ChartHost&) = delete;
    ChartHost& operator=(const ChartHost&) = delete;

    QWidget* widget() { return view_; }

    void setModel(typename ChartT::Model m) {
        model_ = std::move(m);
        if (view_) chart_->setModel(model_);
    }

    void setTitle(const QString& title) {
        title_ = title;
        if (view_) chart_->setBaseTitle(title);
    }

    [[nodiscard]] QString title() const { return title_ ? *title_ : ChartT::defaultTitle(model_); }

    void render(QPainter& painter, QSizeF size) const {
        QGraphicsScene scene;
        auto* chart = new ChartT;  // owned by the scene
        scene.addItem(chart);
        if (title_) chart->setBaseTitle(*title_);
        chart->setGeometry(QRectF(QPointF(0, 0), size));
        chart->setModel(model_);
        // Laying out can move the plot and the overlays, and they can ask for another pass.
        for (int pass = 0; pass < 3; ++pass) chart->layout()->activate();
        painter.save();
        painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
        const QRectF area(QPointF(0, 0), size);
        scene.render(&painter, area, area);
        painter.restore();
    }

    // The widget's size when it is big enough to be readable, else a landscape default.
    [[nodiscard]] QSize exportSize() const {
        const QSize fallback(800, 420);
        if (!view_ || view_->width() < 320 || view_->height() < 200) return fallback;
        return view_->size();
    }

    [[nodiscard]] const typename ChartT::Model& model() const { return model_; }

private:
    ChartT* chart_;  // owned by view_
    QPointer<TipChartView> view_;
    typename ChartT::Model model_;
    std::optional<QString> title_;
};

// The members every view interface shares, for a view `Interface` drawn by `ChartT`.
template <class Interface, class ChartT>
class HostedView : public Interface {
public:
    HostedView(QWidget* parent, const QString& accessible_name) : host_(parent) { host_.widget()->setAccessibleName(accessible_name); }
    QWidget* widget() override { return host_.widget(); }
    void setTitle(const QString& title) override { host_.setTitle(title); }
    void render(QPainter& p, QSizeF size) const override { host_.render(p, size); }
    [[nodiscard]] QString exportTitle() const override { return host_.title(); }
    [[nodiscard]] QSize preferredExportSize() const override { return host_.exportSize(); }

protected:
    ChartHost<ChartT> host_;
};

// toImage() and saveSvg() of the first two views, kept for their callers, through the common export.
template <class Base>
class WithImageExports : public Base {
public:
    using Base::Base;
    [[nodiscard]] QImage toImage(QSize size, qreal device_pixel_ratio) override {
        return render_chart_image(*this, size, device_pixel_ratio * export_px_per_inch);
    }
    bool saveSvg(const QString& path, const QString& title) override {
        ExportOptions options;
        options.size = this->preferredExportSize();
        options.title = title;
        return export_chart(*this, path, ExportFormat::svg, options).isEmpty();
    }
};

}  // namespace comet::ui
