#!/usr/bin/env python3
# Quire's bridge to one long-lived LibreOffice process (server/src/office/office-process.ts).
# Starts soffice with its own profile, connects to it over a UNO pipe, then converts one document
# at a time on request: one JSON line in on stdin, one JSON line out on stdout. It owns loading
# (macros off, links not updated, every dialog refused) and the PDF export filter; it knows
# nothing of keys, quotas or HTTP. Written for Debian's python3-uno (LibreOffice 7.x).

import json
import os
import signal
import subprocess
import sys
import time

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.task import XInteractionHandler

# com.sun.star.document.MacroExecMode.NEVER_EXECUTE and UpdateDocMode.NO_UPDATE
NEVER_EXECUTE = 0
NO_UPDATE = 0

PDF_FILTERS = (
    ("com.sun.star.sheet.SpreadsheetDocument", "calc_pdf_Export"),
    ("com.sun.star.presentation.PresentationDocument", "impress_pdf_Export"),
    ("com.sun.star.drawing.DrawingDocument", "draw_pdf_Export"),
    ("com.sun.star.text.WebDocument", "writer_web_pdf_Export"),
    ("com.sun.star.text.TextDocument", "writer_pdf_Export"),
)

# Import filters named outright where type detection would guess: plain text and CSV.
IMPORT_FILTERS = {
    "txt": ("Text (encoded)", "UTF8"),
    # comma separated, double quotes, UTF-8 (76), from line 1
    "csv": ("Text - txt - csv (StarCalc)", "44,34,76,1"),
}


class Failure(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


class RefuseEverything(unohelper.Base, XInteractionHandler):
    """Answers every question LibreOffice asks while loading with Abort; notes a password request."""

    def __init__(self):
        self.asked_password = False

    def handle(self, request):
        # pyuno cannot turn some requests (DocumentPasswordRequest2) into Python objects, so the
        # question is recognised by its answers: a password request offers a password continuation.
        password = uno.getTypeByName("com.sun.star.task.XInteractionPassword")
        abort = uno.getTypeByName("com.sun.star.task.XInteractionAbort")
        chosen = None
        for continuation in request.getContinuations():
            try:
                if continuation.queryInterface(password) is not None:
                    self.asked_password = True
                if chosen is None and continuation.queryInterface(abort) is not None:
                    chosen = continuation
            except Exception:
                pass
        if chosen is not None:
            chosen.select()


PR_SET_PDEATHSIG = 1


def die_with_parent(signal_number=signal.SIGKILL):
    """Linux: this process gets the signal when its parent dies (so nothing outlives a killed server)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal_number))
    except Exception:
        pass


def office_binary(soffice):
    """soffice.bin itself where it sits beside the launcher script: it can be tied to this process's life."""
    real = os.path.realpath(soffice)
    beside = os.path.join(os.path.dirname(real), "soffice.bin")
    return beside if os.path.basename(real) == "soffice" and os.access(beside, os.X_OK) else soffice


def start_office(soffice, profile, pipe):
    args = [
        office_binary(soffice),
        "-env:UserInstallation=" + uno.systemPathToFileUrl(profile),
        "--headless",
        "--invisible",
        "--nologo",
        "--norestore",
        "--nodefault",
        "--nolockcheck",
        "--nofirststartwizard",
        "--accept=pipe,name=%s;urp;StarOffice.ComponentContext" % pipe,
    ]
    # Its output would corrupt our protocol on stdout: LibreOffice's chatter goes to stderr.
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=sys.stderr, stderr=sys.stderr, preexec_fn=die_with_parent)


def connect(pipe, office, deadline, restart):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    while True:
        try:
            context = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return context, context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
        except Exception:
            if office.poll() is not None:
                if office.returncode != 81:
                    raise Failure("start_failed", "soffice exited with code %s before accepting connections" % office.returncode)
                # 81: the first start of a fresh profile asks to be started again (oosplash's job, ours here).
                office = restart()
            if time.monotonic() > deadline:
                raise Failure("start_failed", "soffice did not accept a connection in time")
            time.sleep(0.05)


def product_version(context):
    try:
        provider = context.ServiceManager.createInstanceWithContext("com.sun.star.configuration.ConfigurationProvider", context)
        access = provider.createInstanceWithArguments(
            "com.sun.star.configuration.ConfigurationAccess", (prop("nodepath", "/org.openoffice.Setup/Product"),)
        )
        return "%s %s" % (access.getByName("ooName"), access.getByName("ooSetupVersionAboutBox"))
    except Exception:
        return "LibreOffice"


def filter_for(doc):
    for service, name in PDF_FILTERS:
        if doc.supportsService(service):
            return name
    raise Failure("conversion_failed", "LibreOffice opened the file as a kind of document it cannot export to PDF")


def make_landscape(doc):
    """Turns every page style landscape (Writer, Calc); slides are already wide."""
    try:
        styles = doc.getStyleFamilies().getByName("PageStyles")
    except Exception:
        return
    for name in styles.getElementNames():
        style = styles.getByName(name)
        if style.IsLandscape:
            continue
        width, height = style.Width, style.Height
        style.IsLandscape = True
        if height > width:
            style.Width, style.Height = height, width


def filter_data(options, pdf_filter):
    data = []
    if options.get("page_ranges"):
        data.append(prop("PageRange", options["page_ranges"].replace(" ", "")))
    if options.get("pdf_ua"):
        data.append(prop("PDFUACompliance", True))
        data.append(prop("UseTaggedPDF", True))
    data.append(prop("ExportFormFields", bool(options.get("export_form_fields", True))))
    data.append(prop("ExportBookmarks", bool(options.get("export_bookmarks", True))))
    data.append(prop("UseLosslessCompression", bool(options.get("lossless_images", False))))
    if options.get("quality") is not None:
        data.append(prop("Quality", int(options["quality"])))
    if options.get("max_image_resolution") is not None:
        data.append(prop("ReduceImageResolution", True))
        data.append(prop("MaxImageResolution", int(options["max_image_resolution"])))
    if pdf_filter == "calc_pdf_Export" and options.get("single_page_sheets"):
        data.append(prop("SinglePageSheets", True))
    return data


def convert(desktop, job):
    options = job.get("options") or {}
    handler = RefuseEverything()
    load = [
        prop("Hidden", True),
        prop("ReadOnly", True),
        prop("MacroExecutionMode", NEVER_EXECUTE),
        prop("UpdateDocMode", NO_UPDATE),
        prop("InteractionHandler", handler),
    ]
    if job.get("kind") in IMPORT_FILTERS:
        name, filter_options = IMPORT_FILTERS[job["kind"]]
        load += [prop("FilterName", name), prop("FilterOptions", filter_options)]
    if options.get("password") is not None:
        load.append(prop("Password", options["password"]))
    try:
        doc = desktop.loadComponentFromURL(uno.systemPathToFileUrl(job["input"]), "_blank", 0, tuple(load))
    except Exception as error:
        doc = None
        reason = str(error)
    else:
        reason = ""
    if doc is None:
        if handler.asked_password:
            if options.get("password") is None:
                raise Failure("password_required", "the file is protected by a password; send it in options.password")
            raise Failure("password_incorrect", "options.password does not open the file")
        raise Failure("conversion_failed", "LibreOffice could not read the file: it is damaged or not of the type its name says" + (" (%s)" % reason if reason else ""))
    try:
        if options.get("landscape"):
            make_landscape(doc)
        pdf_filter = filter_for(doc)
        data = uno.Any("[]com.sun.star.beans.PropertyValue", tuple(filter_data(options, pdf_filter)))
        store = uno.Any(
            "[]com.sun.star.beans.PropertyValue",
            (prop("FilterName", pdf_filter), PropertyValue("FilterData", 0, data, 0)),
        )
        uno.invoke(doc, "storeToURL", (uno.systemPathToFileUrl(job["output"]), store))
    except Failure:
        raise
    except Exception as error:
        if options.get("page_ranges"):
            # LibreOffice refuses to write a PDF with no page: the likeliest cause is a range past the end.
            raise Failure("page_range", "options.page_ranges selects no page of the document (or LibreOffice could not export it)")
        raise Failure("conversion_failed", "LibreOffice could not export the file to PDF (%s)" % error)
    finally:
        try:
            doc.close(True)
        except Exception:
            try:
                doc.dispose()
            except Exception:
                pass
    return {"filter": pdf_filter}


def reply(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main():
    soffice, profile, pipe = sys.argv[1], sys.argv[2], sys.argv[3]
    start_timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 60.0
    offices = []

    def stop(*_):
        end_offices(offices)
        os._exit(0)

    # SIGTERM (not SIGKILL) when the server dies, so the handler above can take soffice along.
    signal.signal(signal.SIGTERM, stop)
    die_with_parent(signal.SIGTERM)
    if os.getppid() == 1:
        return 1
    offices.append(start_office(soffice, profile, pipe))

    def restart():
        offices.append(start_office(soffice, profile, pipe))
        return offices[-1]

    try:
        return serve(soffice, profile, pipe, start_timeout, offices, restart)
    finally:
        end_offices(offices)


def end_offices(offices):
    """However the bridge ends (its server killed, a broken pipe), soffice ends with it. soffice.bin
    may have forked a successor of its own, so the whole process group goes when the bridge leads one
    (the server starts it so); the bridge itself is part of it and ends here too."""
    if os.getpgrp() == os.getpid():
        os.killpg(os.getpgrp(), signal.SIGKILL)
    for office in offices:
        try:
            office.kill()
        except Exception:
            pass


def serve(soffice, profile, pipe, start_timeout, offices, restart):
    try:
        context, desktop = connect(pipe, offices[0], time.monotonic() + start_timeout, restart)
    except Failure as failure:
        reply({"ready": False, "code": failure.code, "message": failure.message})
        offices[-1].kill()
        return 1
    office = offices[-1]
    reply({"ready": True, "pid": office.pid, "version": product_version(context)})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        job = json.loads(line)
        try:
            result = convert(desktop, job)
            reply({"id": job["id"], "ok": True, **result})
        except Failure as failure:
            reply({"id": job["id"], "ok": False, "code": failure.code, "message": failure.message})
        except Exception as error:
            # The bridge to soffice broke (it crashed): say so and stop, the pool starts a new pair.
            reply({"id": job["id"], "ok": False, "code": "crashed", "message": str(error)})
            break
    try:
        desktop.terminate()
    except Exception:
        pass
    try:
        office.wait(timeout=5)
    except Exception:
        office.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
