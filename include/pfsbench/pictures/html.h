/* html.h: the pieces of pfsbench's self-contained HTML report
 * (src/pictures/html.c): escaping, base64 for pictures inlined as data URIs, and
 * the page's frame, whose style reads on a phone and a wide screen and
 * whose Content-Security-Policy lets the page load nothing from anywhere.
 * Pure: writes to a FILE *. */
#ifndef PFSBENCH_HTML_H
#define PFSBENCH_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Text as HTML: & < > " ' as entities, control characters other than
 * newline and tab as U+FFFD; everything else as it is. */
void pfs_html_text(FILE *out, const char *s);

/* The bytes in base64 (RFC 4648, padded, no line breaks). */
void pfs_base64(FILE *out, const void *data, size_t len);

/* <!DOCTYPE html> to <body>, with title (escaped). */
void pfs_html_begin(FILE *out, const char *title);
void pfs_html_end(FILE *out);

/* <pre>text</pre>, escaped. */
void pfs_html_pre(FILE *out, const char *text);

/* A picture as <figure><img src="data:MIME;base64,..." alt=...>
 * <figcaption>caption</figcaption></figure>. */
void pfs_html_figure(FILE *out, const char *mime, const void *data, size_t len,
		     const char *caption);

#endif
