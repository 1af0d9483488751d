# SPDX-License-Identifier: GPL-2.0
#
# Sphinx configuration of dcm's documentation: `make docs` builds it into
# build/docs/html with warnings as errors (Documentation/testing.rst).
#
# The kernel-doc comments of the headers come in through the kernel's own
# kernel-doc script and its Sphinx extension, Documentation/sphinx/
# kerneldoc.py, both taken from Debian's linux-source-6.1 by
# `make linux-src` into $LSRC (build/linux-src by default).

import os
import sys

top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
lsrc = os.environ.get('LSRC') or os.path.join(top, 'build', 'linux-src')
kext = os.path.join(lsrc, 'Documentation', 'sphinx')
if not os.path.isfile(os.path.join(kext, 'kerneldoc.py')):
    sys.exit('conf.py: %s/kerneldoc.py not found: run `make linux-src`' % kext)
sys.path.insert(0, kext)

project = 'dcm'
copyright = 'dcm maintainers; GPL-2.0'
author = 'dcm maintainers'

extensions = ['kerneldoc']
kerneldoc_bin = os.path.join(lsrc, 'scripts', 'kernel-doc')
kerneldoc_srctree = top

root_doc = 'index'
source_suffix = {'.rst': 'restructuredtext'}
exclude_patterns = ['man', 'ABI', 'netlink']
primary_domain = 'c'
highlight_language = 'none'

# The C types of the standard headers and of the kernel's and libnl's
# netlink headers, which no page of this tree defines: a reference to them
# resolves to nothing on purpose.
nitpick_ignore = [('c:identifier', t) for t in (
    '__u8', '__u16', '__u32', '__u64', '__s8', '__s16', '__s32', '__s64',
    'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t',
    'int8_t', 'int16_t', 'int32_t', 'int64_t',
    'size_t', 'ssize_t', 'bool', 'FILE', 'pid_t', 'off_t', 'time_t',
    'va_list', 'nl_sock', 'nlmsghdr', 'timespec', 'pollfd')]

html_theme = 'alabaster'
html_title = 'dcm documentation'
html_show_sourcelink = False
html_copy_source = False


# :man:`dcmctl(8)`: a manual page of this tree (Documentation/man/), checked
# at build time: a page that is not there is an error of the build.
def _man_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    from docutils import nodes
    import re as _re
    m = _re.fullmatch(r'([\w.-]+)\((\d)\)', text)
    page = m and os.path.join(top, 'Documentation', 'man', '%s.%s' % m.groups())
    if not page or not os.path.isfile(page):
        msg = inliner.reporter.error('no manual page %s in Documentation/man/' % text,
                                     line=lineno)
        prb = inliner.problematic(rawtext, rawtext, msg)
        return [prb], [msg]
    return [nodes.emphasis(rawtext, text, classes=['manpage'])], []


def setup(app):
    app.add_role('man', _man_role)
    return {'parallel_read_safe': True}
