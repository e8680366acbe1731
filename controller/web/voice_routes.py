"""The referee's voice on the admin page: its volume and mute, changed live, behind the PIN.

``GET /admin/api/voice`` says whether the voice runs on this table and how loud it is;
``POST /admin/api/voice`` with ``{volume?: 0-100, mute?: bool}`` changes it at once (the
next sentence is said that way) and keeps it across restarts
(:class:`controller.signals.voice_settings.VoiceControl`). Both need the admin session;
the POST also the same-site and CSRF checks every admin POST passes.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from controller.signals.voice_settings import VoiceControl, VoiceSettingError
from controller.web.admin_routes import Gate, _body

NO_STORE = {"Cache-Control": "no-store"}


def voice_router(control: VoiceControl | None, gate: Gate) -> APIRouter:
    r = APIRouter()

    @r.get("/admin/api/voice")
    def voice_now(request: Request) -> JSONResponse:
        gate.require_admin(request)
        if control is None:  # [voice] is off: nothing to turn up or down
            return JSONResponse({"available": False}, headers=NO_STORE)
        return JSONResponse({"available": True, **control.current()}, headers=NO_STORE)

    @r.post("/admin/api/voice")
    async def set_voice(request: Request) -> JSONResponse:
        body = await _body(request)
        gate.check_post(request, body.get("csrf"))
        gate.require_admin(request)
        if control is None:
            raise HTTPException(409, "the referee's voice is off on this table ([voice] enabled = true)")
        try:
            now = control.set(body.get("volume"), body.get("mute"))
        except VoiceSettingError as err:
            raise HTTPException(400, str(err)) from None
        return JSONResponse({"available": True, **now}, headers=NO_STORE)

    return r
