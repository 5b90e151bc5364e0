// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/views/palette.h"

#include <QApplication>
#include <QEvent>
#include <QPainter>
#include <QPointer>
#include <QProxyStyle>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

namespace ss::ui {

namespace {

double linearChannel(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double relativeLuminance(const QColor& c)
{
    return 0.2126 * linearChannel(c.redF()) + 0.7152 * linearChannel(c.greenF()) +
           0.0722 * linearChannel(c.blueF());
}

QPalette darkPalette()
{
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabledText(0x80, 0x84, 0x8a);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x33, 0x36, 0x3b));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3d));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x53));
    p.setColor(QPalette::Midlight, QColor(0x3f, 0x42, 0x47));
    p.setColor(QPalette::Mid, QColor(0x2f, 0x31, 0x35));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0d));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xd6));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xf0));
    p.setColor(QPalette::LinkVisited, QColor(0xa8, 0x8c, 0xe8));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    return p;
}

/// Fusion, with check boxes that stand out: Fusion outlines them in the window colour darkened
/// by 40%, which on the dark base is all but invisible (the mask bits of the raw-arguments table)
/// and on the light one under the 3:1 that WCAG asks of a control's edge. The outline drawn over
/// it has over 4:1 with either base.
class ThemeStyle : public QProxyStyle
{
public:
    ThemeStyle() : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion"))) {}

    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
                       const QWidget* widget) const override
    {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if (element != PE_IndicatorCheckBox) return;
        painter->save();
        // Where Fusion draws its own outline.
        painter->setRenderHint(QPainter::Antialiasing, true);
        painter->translate(0.5, 0.5);
        painter->setBrush(Qt::NoBrush);
        painter->setPen(isDark(option->palette) ? QColor(0x8c, 0x90, 0x98)
                                                : QColor(0x6e, 0x72, 0x7a));
        painter->drawRect(option->rect.adjusted(0, 0, -1, -1));
        painter->restore();
    }
};

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

/// Calls the functions of the widgets that follow the theme whenever the application's palette
/// changes. The application object is told of every change; a widget is told only when its own
/// palette resolves differently, which a style sheet's widget may not.
class ThemeWatcher : public QObject
{
public:
    static ThemeWatcher& instance()
    {
        static QPointer<ThemeWatcher> watcher;
        if (!watcher) {
            watcher = new ThemeWatcher(qApp);
            qApp->installEventFilter(watcher);
        }
        return *watcher;
    }

    void add(QWidget* widget, std::function<void()> apply)
    {
        m_followers.emplace_back(widget, std::move(apply));
    }

    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == qApp && event->type() == QEvent::ApplicationPaletteChange) {
            std::erase_if(m_followers, [](const auto& f) { return f.first.isNull(); });
            // A copy: a function may make widgets that follow the theme too.
            const auto followers = m_followers;
            for (const auto& [widget, apply] : followers)
                if (widget) apply();
        }
        return QObject::eventFilter(watched, event);
    }

private:
    explicit ThemeWatcher(QObject* parent) : QObject(parent) {}

    std::vector<std::pair<QPointer<QWidget>, std::function<void()>>> m_followers;
};

} // namespace

QPalette themePalette(Theme theme)
{
    if (theme == Theme::Dark) return darkPalette();
    std::unique_ptr<QStyle> fusion(QStyleFactory::create(QStringLiteral("Fusion")));
    return fusion ? fusion->standardPalette() : QPalette();
}

void applyTheme(QApplication& app, Theme theme)
{
    app.setStyle(new ThemeStyle);
    app.setPalette(themePalette(theme));
}

bool isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightnessF() <
           palette.color(QPalette::WindowText).lightnessF();
}

const std::array<QColor, 9>& readOrderStops()
{
    // Close to matplotlib's viridis, designed to be perceptually uniform and colour-blind
    // safe; lightness rises monotonically, so the order survives greyscale too.
    static const std::array<QColor, 9> stops = {
        QColor(0x44, 0x01, 0x54), QColor(0x47, 0x2c, 0x7a), QColor(0x3b, 0x51, 0x8b),
        QColor(0x2c, 0x71, 0x8e), QColor(0x21, 0x90, 0x8d), QColor(0x27, 0xad, 0x81),
        QColor(0x5c, 0xc8, 0x63), QColor(0xaa, 0xdc, 0x32), QColor(0xfd, 0xe7, 0x25)};
    return stops;
}

QColor readOrderColor(double t)
{
    const auto& stops = readOrderStops();
    const double pos = std::clamp(std::isnan(t) ? 0.0 : t, 0.0, 1.0) * double(stops.size() - 1);
    const auto i = std::min<std::size_t>(std::size_t(pos), stops.size() - 2);
    const double f = pos - double(i);
    const QColor& a = stops[i];
    const QColor& b = stops[i + 1];
    return QColor::fromRgbF(float(a.redF() + f * (b.redF() - a.redF())),
                            float(a.greenF() + f * (b.greenF() - a.greenF())),
                            float(a.blueF() + f * (b.blueF() - a.blueF())));
}

QColor textColorOn(const QColor& background)
{
    const double l = relativeLuminance(background);
    const double onBlack = (l + 0.05) / 0.05;
    const double onWhite = 1.05 / (l + 0.05);
    return onBlack >= onWhite ? QColor(Qt::black) : QColor(Qt::white);
}

QColor focusTint(const QPalette& palette)
{
    return isDark(palette) ? QColor(0x6b, 0x4e, 0x0a) : QColor(0xff, 0xe3, 0x94);
}

QColor focusText(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xff, 0xd5, 0x6a) : QColor(0x7a, 0x4a, 0x00);
}

QColor mismatchTint(const QPalette& palette)
{
    return isDark(palette) ? QColor(0x5c, 0x1f, 0x24) : QColor(0xf8, 0xd0, 0xd3);
}

QColor roleColor(ColorRole role, const QPalette& palette)
{
    const bool dark = isDark(palette);
    // The one error red: deep on the light theme's near-white, light on the dark one's grey,
    // each over 5:1 with Window and Base. Tints and edges are mixed from it and Base.
    const QColor error = dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb3, 0x26, 0x1e);
    const QColor base = palette.color(QPalette::Base);
    switch (role) {
    case ColorRole::Error: return error;
    case ColorRole::ErrorTint: return mix(base, error, dark ? 0.30 : 0.14);
    case ColorRole::ErrorBorder: return mix(base, error, 0.8);
    case ColorRole::Warning: return dark ? QColor(0xff, 0xb4, 0x54) : QColor(0x9a, 0x4d, 0x00);
    case ColorRole::Success: return dark ? QColor(0x7e, 0xe7, 0x87) : QColor(0x17, 0x6b, 0x17);
    case ColorRole::NoticeTint: return dark ? QColor(0x4a, 0x3f, 0x1c) : QColor(0xff, 0xf4, 0xd6);
    case ColorRole::NoticeBorder: return dark ? QColor(0x8a, 0x74, 0x30) : QColor(0xe0, 0xc0, 0x68);
    case ColorRole::Mark: return dark ? QColor(0x6b, 0x4e, 0x0a) : QColor(0xff, 0xd1, 0x66);
    case ColorRole::MarkText: return dark ? QColor(0xff, 0xe0, 0x8a) : QColor(Qt::black);
    case ColorRole::LitRow: return QColor(255, 190, 0, dark ? 70 : 90);
    // Drawn over the read-order ramp, not over the theme: the same in both.
    case ColorRole::CellHalo: return QColor(0x10, 0x10, 0x10);
    case ColorRole::CellOutline: return QColor(Qt::white);
    case ColorRole::CellMark: return QColor(0xb3, 0x26, 0x1e);
    case ColorRole::HeatLow: return dark ? QColor(0x30, 0x32, 0x36) : QColor(0xf4, 0xf4, 0xf4);
    case ColorRole::HeatHigh: return dark ? QColor(0xb8, 0xba, 0xbe) : QColor(0x55, 0x57, 0x5b);
    case ColorRole::HeatNaN: return QColor(0xd6, 0x27, 0x28);
    case ColorRole::PictureMatte: return QColor(Qt::white);
    case ColorRole::SyntaxName: return dark ? QColor(0x9a, 0x9a, 0x9a) : QColor(0x6a, 0x6a, 0x6a);
    case ColorRole::SyntaxNumber: return dark ? QColor(0x6c, 0xb6, 0xff) : QColor(0x0b, 0x5c, 0xad);
    case ColorRole::SyntaxColon: return dark ? QColor(0xff, 0xb4, 0x54) : QColor(0xb3, 0x59, 0x00);
    case ColorRole::SyntaxNone: return dark ? QColor(0x7e, 0xe7, 0x87) : QColor(0x1b, 0x7a, 0x3d);
    case ColorRole::SyntaxEllipsis:
        return dark ? QColor(0xd2, 0xa8, 0xff) : QColor(0x7b, 0x2c, 0xbf);
    case ColorRole::SyntaxLit: return dark ? QColor(0x5c, 0x4a, 0x00) : QColor(0xff, 0xe0, 0x8a);
    case ColorRole::SyntaxError: return error;
    }
    return error;
}

QColor roleColor(ColorRole role)
{
    return roleColor(role, QGuiApplication::palette());
}

QString styleColor(ColorRole role)
{
    const QColor c = roleColor(role);
    if (c.alpha() == 255) return c.name(QColor::HexRgb);
    return QStringLiteral("rgba(%1, %2, %3, %4)")
        .arg(c.red())
        .arg(c.green())
        .arg(c.blue())
        .arg(c.alpha());
}

void followTheme(QWidget* widget, std::function<void()> apply)
{
    apply();
    ThemeWatcher::instance().add(widget, std::move(apply));
}

QString unreadableFieldStyle()
{
    return QStringLiteral("QLineEdit { border: 2px solid %1; }").arg(styleColor(ColorRole::Error));
}

} // namespace ss::ui
