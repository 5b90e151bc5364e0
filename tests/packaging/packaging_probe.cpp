// SPDX-License-Identifier: GPL-3.0-or-later
// The two questions the packaging checks need Qt to answer:
//
//   packaging_probe image FILE.png MIN_COLOURS [WIDTHxHEIGHT]
//       Is the image really drawn? A blank or failed render is one flat colour (a couple with a
//       border); a drawn window or icon has many. Optionally checks the exact size.
//   packaging_probe mime FILE TYPE
//       Does the MIME database (XDG_DATA_DIRS) give FILE the type TYPE, as a file manager asks
//       (by name, then by content)?
//
// Exit status 0 when the answer is yes; otherwise 1, with the reason on stderr.

#include <QCoreApplication>
#include <QImage>
#include <QMimeDatabase>
#include <QSet>
#include <QTextStream>

namespace {

int fail(const QString& why)
{
    QTextStream(stderr) << why << '\n';
    return 1;
}

int probeImage(const QString& path, qsizetype minColours, const QString& size)
{
    const QImage image(path);
    if (image.isNull()) return fail(path + ": not a readable image");
    const QString actualSize = QStringLiteral("%1x%2").arg(image.width()).arg(image.height());
    if (!size.isEmpty() && actualSize != size)
        return fail(QStringLiteral("%1: %2, expected %3").arg(path, actualSize, size));
    QSet<QRgb> colours;
    for (int y = 0; y < image.height() && colours.size() < minColours; ++y)
        for (int x = 0; x < image.width(); ++x)
            colours.insert(image.pixel(x, y));
    if (colours.size() < minColours)
        return fail(QStringLiteral("%1: looks blank (%2 distinct colours, expected at least %3)")
                        .arg(path)
                        .arg(colours.size())
                        .arg(minColours));
    return 0;
}

int probeMime(const QString& path, const QString& expected)
{
    const QString actual = QMimeDatabase().mimeTypeForFile(path).name();
    if (actual != expected)
        return fail(QStringLiteral("%1: %2, expected %3").arg(path, actual, expected));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() >= 3 && args.size() <= 4 && args[0] == QLatin1String("image")) {
        bool isNumber = false;
        const qsizetype minColours = args[2].toLongLong(&isNumber);
        if (isNumber && minColours > 0) return probeImage(args[1], minColours, args.value(3));
    }
    if (args.size() == 3 && args[0] == QLatin1String("mime")) return probeMime(args[1], args[2]);
    QTextStream(stderr) << "usage: packaging_probe image FILE.png MIN_COLOURS [WIDTHxHEIGHT]\n"
                           "       packaging_probe mime FILE TYPE\n";
    return 2;
}
