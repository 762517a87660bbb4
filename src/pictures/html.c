/* html.c: escaping, base64 and the frame of the HTML report; see
 * include/pfsbench/pictures/html.h. Everything a results file says is written
 * through pfs_html_text. */
#include "pfsbench/pictures/html.h"

#include <stdint.h>

void pfs_html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
				fputs("&#xfffd;", out);
			else
				fputc(c, out);
		}
	}
}

void pfs_base64(FILE *out, const void *data, size_t len)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		size_t n = len - i < 3 ? len - i : 3;

		if (n > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (n > 2)
			v |= p[i + 2];
		fputc(abc[v >> 18 & 63], out);
		fputc(abc[v >> 12 & 63], out);
		fputc(n > 1 ? abc[v >> 6 & 63] : '=', out);
		fputc(n > 2 ? abc[v & 63] : '=', out);
	}
}

/* One column on a phone, at most 1200 px on a wide screen; the report's
 * wide text scrolls inside its own box, never the page. */
static const char style[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1b1b1b;"
	"background:#fff;margin:0 auto;max-width:1200px;padding:0 14px 40px}\n"
	"h1{font-size:1.5em;margin:18px 0 6px}h2{font-size:1.25em;margin:28px 0 8px;"
	"border-bottom:2px solid #1f77b4;padding-bottom:3px}h3{font-size:1.05em;margin:18px 0 6px}\n"
	"pre{overflow-x:auto;background:#f5f6f7;border:1px solid #e2e4e6;border-radius:4px;"
	"padding:8px;font:12px/1.35 ui-monospace,'DejaVu Sans Mono',monospace}\n"
	"img{display:block;max-width:100%;height:auto;margin:0 auto}\n"
	"figure{margin:14px 0 22px}figcaption{font-size:.9em;color:#444;margin-top:4px}\n"
	"table{border-collapse:collapse;width:100%;font-size:.9em}\n"
	"th,td{text-align:left;vertical-align:top;padding:3px 8px;border-top:1px solid #e2e4e6;"
	"overflow-wrap:anywhere}th{width:28%;font-weight:600}\n"
	"nav ul{padding-left:18px}.note{color:#8a4b00}\n"
	"@media (max-width:600px){body{font-size:14px;padding:0 8px 30px}pre{font-size:10px}"
	"th{width:40%}}\n";

void pfs_html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "img-src data:; style-src 'unsafe-inline'\">\n<title>",
	      out);
	pfs_html_text(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

void pfs_html_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

void pfs_html_pre(FILE *out, const char *text)
{
	fputs("<pre>", out);
	pfs_html_text(out, text);
	fputs("</pre>\n", out);
}

void pfs_html_figure(FILE *out, const char *mime, const void *data, size_t len,
		     const char *caption)
{
	fprintf(out, "<figure><img src=\"data:%s;base64,", mime);
	pfs_base64(out, data, len);
	fputs("\" alt=\"", out);
	pfs_html_text(out, caption);
	fputs("\"><figcaption>", out);
	pfs_html_text(out, caption);
	fputs("</figcaption></figure>\n", out);
}
