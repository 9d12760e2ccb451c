import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/**
 * The otpauth URI as a QR code drawn here (never sent to an image service:
 * it holds the secret), with the secret in text for apps that cannot scan.
 */
export function TotpQrCode({ uri, secret }: { uri: string; secret: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }).then(
      (markup) => live && setSvg(markup),
      () => live && setSvg(null),
    );
    return () => {
      live = false;
    };
  }, [uri]);
  return (
    <div className="totp-setup">
      {svg && <img className="totp-qr" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="QR code for your authenticator app" width={180} height={180} />}
      <p className="muted">
        Scan the code with an authenticator app, or enter this key:{' '}
        <code className="mono totp-secret" data-testid="totp-secret">
          {secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </p>
    </div>
  );
}
