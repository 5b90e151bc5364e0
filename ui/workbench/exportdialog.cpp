// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/workbench/exportdialog.h"

#include "ui/views/palette.h"
#include "ui/views/picturewriter.h"
#include "ui/views/readorderanimation.h"
#include "ui/workbench/imageexporter.h"
#include "ui/workbench/mainwindow.h"
#include "ui/workbench/mnemonics.h"
#include "ui/workbench/workspacedocument.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>

#include <algorithm>

namespace ss::ui {

ExportDialog::ExportDialog(MainWindow& window, Kind kind)
    : QDialog(&window), m_window(window), m_kind(kind), m_view(new QComboBox),
      m_path(new QLineEdit), m_error(new QLabel)
{
    const bool image = kind == Kind::Image;
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(image ? tr("Export Image") : tr("Export Read-Order Animation"));
    m_view->setObjectName(QStringLiteral("exportView"));
    m_view->setAccessibleName(tr("View to export"));
    for (const QString& name : ImageExporter(window).views())
        if (image || name != QLatin1String("window")) m_view->addItem(name, name);
    // The output is what people come for; an animation of the input shows the reading best.
    m_view->setCurrentIndex(
        std::max(0, m_view->findData(image ? QStringLiteral("output") : QStringLiteral("input"))));
    m_path->setObjectName(QStringLiteral("exportPath"));
    m_path->setAccessibleName(tr("File to write"));
    m_path->setText(QDir(window.document()->dialogFolder())
                        .filePath(image ? QStringLiteral("slicescope.svg")
                                        : QStringLiteral("slicescope-read-order.png")));
    // Room for the whole default path (in the last folder used, which may be a long one), up
    // to two thirds of the screen.
    const QFontMetrics metrics = m_path->fontMetrics();
    m_path->setMinimumWidth(std::min(
        std::max(metrics.averageCharWidth() * 40,
                 metrics.horizontalAdvance(m_path->text()) + metrics.averageCharWidth() * 4),
        window.screen()->availableGeometry().width() * 2 / 3));
    m_path->setToolTip(
        image ? tr("The suffix chooses the format: %1").arg(PictureWriter::formatList())
              : tr("An animated PNG (.png, .apng), or a directory (ending in /) "
                   "for numbered frames frame-0001.png, …"));
    auto* browseButton = new QPushButton(tr("Browse…"));
    browseButton->setObjectName(QStringLiteral("exportBrowse"));
    browseButton->setAccessibleName(tr("Choose the file"));
    connect(browseButton, &QPushButton::clicked, this, &ExportDialog::browse);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browseButton);

    auto* form = new QFormLayout;
    form->addRow(tr("&View:"), m_view);
    // A row whose field is a layout gets no buddy from QFormLayout: without one the label
    // shows its "&" and Alt+F reaches nothing.
    auto* pathLabel = new QLabel(tr("&File:"));
    pathLabel->setBuddy(m_path);
    form->addRow(pathLabel, pathRow);
    if (image) {
        m_scale = new QDoubleSpinBox;
        m_scale->setObjectName(QStringLiteral("exportScale"));
        m_scale->setAccessibleName(tr("PNG scale"));
        m_scale->setRange(1.0, PictureWriter::kMaxScale);
        m_scale->setSingleStep(0.5);
        m_scale->setValue(2.0); // sharp on a projector or a high-density screen
        m_scale->setSuffix(QStringLiteral(" ×"));
        m_scale->setToolTip(tr("Pixels per screen pixel in a PNG (SVG and PDF are vector)"));
        form->addRow(tr("PNG &scale:"), m_scale);
    } else {
        m_speed = new QSpinBox;
        m_speed->setObjectName(QStringLiteral("exportSpeed"));
        m_speed->setAccessibleName(tr("Milliseconds per step"));
        m_speed->setRange(ReadOrderAnimation::kMinStepMs, ReadOrderAnimation::kMaxStepMs);
        m_speed->setValue(ReadOrderAnimation::kDefaultStepMs);
        m_speed->setSuffix(tr(" ms per step"));
        m_speed->setToolTip(tr("Each step lights the next cell (past %1 cells, several at a "
                               "time); the finished picture stays %2 s")
                                .arg(ReadOrderAnimation::kMaxSteps)
                                .arg(ReadOrderAnimation::kHoldMs / 1000));
        form->addRow(tr("&Speed:"), m_speed);
    }
    m_error->setObjectName(QStringLiteral("exportError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    followTheme(m_error, [this] {
        m_error->setStyleSheet(QStringLiteral("color: %1").arg(styleColor(ColorRole::Error)));
    });
    m_error->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    auto* column = new QVBoxLayout(this);
    column->addLayout(form);
    column->addWidget(m_error);
    column->addWidget(buttons);
    giveButtonsMnemonics(*this);
}

void ExportDialog::run(MainWindow& window, Kind kind)
{
    ExportDialog dialog(window, kind);
    dialog.exec();
}

void ExportDialog::setView(const QString& name)
{
    m_view->setCurrentIndex(m_view->findData(name));
}

void ExportDialog::setPath(const QString& path)
{
    m_path->setText(path);
}

QString ExportDialog::errorText() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

void ExportDialog::browse()
{
    const QString path =
        m_kind == Kind::Image
            ? QFileDialog::getSaveFileName(this, windowTitle(), m_path->text(),
                                           tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"))
            : QFileDialog::getSaveFileName(this, windowTitle(), m_path->text(),
                                           tr("Animated PNG (*.png *.apng)"));
    if (!path.isEmpty()) m_path->setText(path);
}

void ExportDialog::accept()
{
    ImageExporter exporter(m_window);
    QString error;
    const QString view = m_view->currentData().toString();
    const QString path = m_path->text().trimmed();
    const bool done = m_kind == Kind::Image
                          ? exporter.exportImage(view, path, m_scale->value(), &error)
                          : exporter.exportAnimation(view, path, m_speed->value(), &error);
    if (!done) {
        m_error->setText(error);
        m_error->show();
        // A wrapped label asks for its height only through heightForWidth, which a window's
        // minimum size ignores: grow the dialog so that the whole reason shows.
        layout()->activate();
        const int needed = layout()->totalHeightForWidth(width());
        if (needed > height()) resize(width(), needed);
        return;
    }
    // A directory of frames ("DIR/") is remembered itself, a file by its folder.
    WorkspaceDocument::rememberFolder(path.endsWith(u'/') ? path + u'.' : path);
    QDialog::accept();
}

} // namespace ss::ui
