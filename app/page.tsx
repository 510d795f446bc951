export default function Home() {
  return (
    <main>
      <h1>Brier</h1>
      <p>Prediction-market data service. API: /v0/markets, /v0/events, /api/:exchange/:method, /v0/sql.</p>
    </main>
  );
}
